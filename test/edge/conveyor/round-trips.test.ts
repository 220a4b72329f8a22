// How many times one proposal goes to D1 on its way from proposed to executed (the conveyor's main cost
// under load): the hub's D1 binding is wrapped to count every statement sent alone and every batch.
import { runInDurableObject } from "cloudflare:test";
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

describe("D1 round trips per proposal", () => {
  it("an approved http.request proposal reaches EXECUTED in a bounded number of D1 round trips", async () => {
    const d = await device();
    const key = uniqueKey("trips");
    // Warm the hub (user id, settings, grants load) so only the proposal's own trips are counted.
    await d.get("/v1/approvals?status=pending");
    const counted = await countTrips(d);
    const created = await d.companion.post("/v1/proposals", {
      tool: "http.request",
      identity: "bot",
      idempotency_key: key,
      justification: "Count the trips.",
      args: { method: "POST", url: `${TARGET}/effect` },
    });
    const { proposal } = (await created.json()) as { proposal: ProposalView };
    const proposeTrips = counted.trips.length;
    expect((await d.post(`/v1/approvals/${proposal.id}/approve`, { scope: "once" })).status).toBe(200);
    const done = (await (await d.post(`/v1/proposals/${proposal.id}/execute`)).json()) as {
      proposal: ProposalView;
    };
    expect(done.proposal.state).toBe("EXECUTED");
    const total = counted.trips.length;
    console.log(`D1 round trips: propose ${proposeTrips}, total ${total}\n  ${counted.trips.join("\n  ")}`);
    // Counted in the hub only (the Worker's auth lookups are per request, not per proposal).
    expect(total).toBeLessThanOrEqual(TRIP_BUDGET);
  });
});

/** The hub's D1 round trips for one proposal, propose to executed, plus the 4 of the three requests' auth (was 18 in all before batching). */
const TRIP_BUDGET = 15;
