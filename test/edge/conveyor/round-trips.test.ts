// How many times one proposal goes to D1 on its way from proposed to executed (the conveyor's main cost
// under load): the hub's D1 binding is wrapped to count every statement sent alone and every batch. The binding
// is the isolate's, shared by every hub in it, so this file runs isolated (`edge`, not `edge-shared`): another
// file's hub flushing its outbox on an alarm would be counted here.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ProposalView } from "../../../src/protocol/conveyor.ts";
import { device } from "../approvals-helpers.ts";
import { TARGET, uniqueKey } from "./support.ts";

type Device = Awaited<ReturnType<typeof device>>;
interface Counted {
  trips: string[];
}

/** Wraps the hub's D1 binding in place: every prepared statement run alone and every batch is one trip. */
async function countTrips(d: Device): Promise<Counted> {
  const counted: Counted = { trips: [] };
  await runInDurableObject(d.hub, (instance) => {
    const db = (instance as unknown as { env: { DB: D1Database } }).env.DB as D1Database & {
      __counted?: Counted;
    };
    if (db.__counted) return;
    db.__counted = counted;
    const prepare = db.prepare.bind(db);
    const batch = db.batch.bind(db);
    const exec = db.exec.bind(db);
    const label = (sql: string) => sql.replace(/\s+/g, " ").slice(0, 60);
    const wrap = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
      const bind = stmt.bind.bind(stmt);
      for (const m of ["all", "run", "first", "raw"] as const) {
        const original = (stmt[m] as (...a: unknown[]) => unknown).bind(stmt);
        (stmt as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
          counted.trips.push(label(sql));
          return original(...a);
        };
      }
      stmt.bind = (...values: unknown[]) => wrap(bind(...values), sql);
      return stmt;
    };
    db.prepare = (sql: string) => wrap(prepare(sql), sql);
    db.batch = (statements) => {
      counted.trips.push(`batch of ${statements.length}`);
      return batch(statements);
    };
    db.exec = (sql: string) => {
      counted.trips.push(label(sql));
      return exec(sql);
    };
  });
  return counted;
}

/** One proposal's whole path: proposed, approved by the person, executed. */
async function convey(d: Device, key: string): Promise<void> {
  const created = await d.companion.post("/v1/proposals", {
    tool: "http.request",
    identity: "bot",
    idempotency_key: key,
    justification: "Count the trips.",
    args: { method: "POST", url: `${TARGET}/effect` },
  });
  const { proposal } = (await created.json()) as { proposal: ProposalView };
  expect(proposal.state).toBe("PENDING");
  expect((await d.post(`/v1/approvals/${proposal.id}/approve`, { scope: "once" })).status).toBe(200);
  const done = (await (await d.post(`/v1/proposals/${proposal.id}/execute`)).json()) as {
    proposal: ProposalView;
  };
  expect(done.proposal.state).toBe("EXECUTED");
}

/**
 * Sends whatever the warm-up left in the hub's outbox now (due at once, the alarm run), so a flush the machine's
 * load delayed does not land in the counted proposal's trips.
 */
async function drainOutbox(d: Device): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const left = await runInDurableObject(d.hub, (_hub, state) => {
      state.storage.sql.exec("UPDATE outbox SET next_attempt_at = ?", Date.now() - 1);
      return state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM outbox").one().n;
    });
    if (left === 0) return;
    await runDurableObjectAlarm(d.hub);
  }
  throw new Error("the hub's outbox did not drain after the warm-up");
}

/** The Worker's per-request bearer lookup (and its throttled last-seen write), not the proposal's. */
const isAuth = (trip: string) => trip.includes('"auth_tokens"') || trip.startsWith('update "devices"');

describe("D1 round trips per proposal", () => {
  it("an approved http.request proposal reaches EXECUTED in four hub round trips (three requests' auth aside)", async () => {
    const d = await device();
    // Warm the hub (user id, settings, the one-time grants import) with a first proposal; count the second.
    await convey(d, uniqueKey("trips-warm"));
    await drainOutbox(d);
    const counted = await countTrips(d);
    await convey(d, uniqueKey("trips"));
    const hub = counted.trips.filter((t) => !isAuth(t));
    console.log(
      `D1 round trips: ${counted.trips.length} (hub ${hub.length})\n  ${counted.trips.join("\n  ")}`,
    );
    // propose: the proposal and its audit (1 batch); approve: the decision (1 UPDATE … RETURNING), the
    // executor's claim (1 INSERT, also the dispatch mark); the run's end: result, proposal and the queued
    // audit (1 batch). Before this count was cut it was 11 in the hub (14 with auth), and 15 before that.
    expect(hub).toHaveLength(HUB_TRIPS);
    expect(hub.filter((t) => t.startsWith("batch"))).toHaveLength(2);
    expect(counted.trips.length).toBeLessThanOrEqual(HUB_TRIPS + 3);
  });
});

const HUB_TRIPS = 4;
