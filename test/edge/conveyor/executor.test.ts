// The idempotent executor against real D1 and a real local target that counts effects by key:
// concurrency, key reuse, in-flight keys, and crashes injected around the claim, the send and the result.
import { describe, expect, it } from "vitest";
import type { FaultPoint } from "../../../src/edge/conveyor/executor.ts";
import { auditOf, effectsOf, executor, newOwner, TARGET, targetStats, uniqueKey } from "./support.ts";

const post = (body: unknown = { hello: "world" }) => ({
  method: "POST",
  url: `${TARGET}/effect`,
  json: body,
  timeout_ms: 5_000,
});

class Crash extends Error {}

describe("idempotent executor", () => {
  it("runs a key once however many callers race: 50 concurrent calls, one effect, one record", async () => {
    const owner = await newOwner();
    const key = uniqueKey("race");
    const ex = executor();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        ex.execute({ ownerId: owner, tool: "http.request", key, args: post(), actor: "test" }),
      ),
    );
    expect(await effectsOf(`http.request:${key}`)).toBe(1);
    const ran = results.filter((r) => r.ok && !r.replayed);
    expect(ran).toHaveLength(1);
    // The others saw the run in flight (409 idempotency_key_in_use) or, if it had finished, its record.
    for (const r of results) {
      if (!r.ok) expect(r.code).toBe("idempotency_key_in_use");
    }
    const after = await ex.execute({
      ownerId: owner,
      tool: "http.request",
      key,
      args: post(),
      actor: "test",
    });
    expect(after).toMatchObject({ ok: true, replayed: true });
    if (after.ok && ran[0]?.ok) expect(after.envelope).toEqual(ran[0].envelope);
  });

  it("returns the stored result for the same key and args without running again", async () => {
    const owner = await newOwner();
    const key = uniqueKey("replay");
    const ex = executor();
    const first = await ex.execute({
      ownerId: owner,
      tool: "http.request",
      key,
      args: post(),
      actor: "test",
    });
    const second = await ex.execute({
      ownerId: owner,
      tool: "http.request",
      key,
      args: post(),
      actor: "test",
    });
    expect(first).toMatchObject({ ok: true, replayed: false });
    expect(second).toMatchObject({ ok: true, replayed: true });
    expect(await effectsOf(`http.request:${key}`)).toBe(1);
    if (first.ok) {
      expect(first.envelope).toMatchObject({
        tool: "http.request",
        status: "executed",
        verification: { outcome: "passed" },
      });
      expect(first.envelope.input).toMatchObject({ method: "POST" });
    }
  });

  it("refuses the same key with other args (409 idempotency_conflict) and audits it", async () => {
    const owner = await newOwner();
    const key = uniqueKey("conflict");
    const ex = executor();
    await ex.execute({ ownerId: owner, tool: "http.request", key, args: post({ a: 1 }), actor: "test" });
    const reuse = await ex.execute({
      ownerId: owner,
      tool: "http.request",
      key,
      args: post({ a: 2 }),
      actor: "device:dev_x",
    });
    expect(reuse).toMatchObject({ ok: false, code: "idempotency_conflict" });
    expect(await effectsOf(`http.request:${key}`)).toBe(1);
    const rows = await auditOf(owner, `http.request:${key}`);
    const conflict = rows.find((r) => r.event === "conveyor.idempotency_conflict");
    expect(conflict?.actor).toBe("device:dev_x");
  });

  it("answers 409 idempotency_key_in_use while the first run of a key is still going", async () => {
    const owner = await newOwner();
    const key = uniqueKey("inflight");
    const ex = executor();
    const slow = { method: "POST", url: `${TARGET}/hang`, timeout_ms: 1_500 };
    const first = ex.execute({ ownerId: owner, tool: "http.request", key, args: slow, actor: "test" });
    // The claim is a D1 row: wait for it to exist (each check awaits D1) rather than guessing a delay.
    const { env } = await import("cloudflare:workers");
    const claim = env.DB.prepare("SELECT state FROM idempotency WHERE owner_id = ? AND key = ?").bind(
      owner,
      key,
    );
    while (!(await claim.first())) {
      // next D1 round trip
    }
    let second = await ex.execute({ ownerId: owner, tool: "http.request", key, args: slow, actor: "test" });
    expect(second).toMatchObject({ ok: false, code: "idempotency_key_in_use" });
    const done = await first;
    // A write that got no answer is partial (it may have landed), never silently "failed".
    expect(done).toMatchObject({
      ok: true,
      envelope: { status: "partial", failure: { class: "partial_execution" } },
    });
    second = await ex.execute({ ownerId: owner, tool: "http.request", key, args: slow, actor: "test" });
    expect(second).toMatchObject({ ok: true, replayed: true });
  });

  describe.each<FaultPoint>(["after_claim", "after_dispatch_mark", "after_effect"])(
    "a crash at %s",
    (point) => {
      it("an http.request is never sent twice: a possible send ends PARTIAL with remediation", async () => {
        const owner = await newOwner();
        const key = uniqueKey(`crash-${point}`);
        const args = { ...post(), url: `${TARGET}/effect?k=${key}` };
        let clock = Date.now();
        const crashing = executor({
          now: () => clock,
          fault: (p) => {
            if (p === point) throw new Crash(point);
          },
        });
        await expect(
          crashing.execute({ ownerId: owner, tool: "http.request", key, args, actor: "test" }),
        ).rejects.toThrow(Crash);
        const healthy = executor({ now: () => clock });
        // Before the lease runs out the crashed run still holds the key.
        expect(
          await healthy.execute({ ownerId: owner, tool: "http.request", key, args, actor: "test" }),
        ).toMatchObject({ ok: false, code: "idempotency_key_in_use" });
        clock += 10 * 60_000;
        const recovered = await healthy.execute({
          ownerId: owner,
          tool: "http.request",
          key,
          args,
          actor: "test",
        });
        const requests = (await targetStats()).paths.filter((p) => p === `POST /effect?k=${key}`).length;
        // The claim is also the dispatch mark (one statement), so from the claim on it may have gone out
        // (it did, after the effect): never re-sent, whatever the target does with keys.
        expect(recovered).toMatchObject({
          ok: true,
          envelope: { status: "partial", failure: { class: "partial_execution" } },
        });
        if (recovered.ok) expect(recovered.envelope.failure?.remediation).toMatch(/new approval/);
        expect(requests).toBe(point === "after_effect" ? 1 : 0);
        expect((await auditOf(owner, `http.request:${key}`)).map((r) => r.event)).toContain(
          "conveyor.recovered",
        );
      });

      it("a target the person declared idempotent is sent again after a crash (its key deduplicates)", async () => {
        const owner = await newOwner();
        const key = uniqueKey(`declared-${point}`);
        const args = { ...post(), url: `${TARGET}/effect?k=${key}` };
        let clock = Date.now();
        const declared = { declaredIdempotent: async () => true };
        await expect(
          executor({
            now: () => clock,
            ...declared,
            fault: (p) => {
              if (p === point) throw new Crash(point);
            },
          }).execute({ ownerId: owner, tool: "http.request", key, args, actor: "test" }),
        ).rejects.toThrow(Crash);
        clock += 10 * 60_000;
        const recovered = await executor({ now: () => clock, ...declared }).execute({
          ownerId: owner,
          tool: "http.request",
          key,
          args,
          actor: "test",
        });
        expect(recovered).toMatchObject({ ok: true, envelope: { status: "executed", attempt: 2 } });
        expect(await effectsOf(`http.request:${key}`)).toBe(1);
      });

      it("never repeats an effect that cannot be deduplicated downstream", async () => {
        const owner = await newOwner();
        const key = uniqueKey(`crash-note-${point}`);
        let clock = Date.now();
        const args = { topic: "crash", text: `note ${key}` };
        const crashing = executor({
          now: () => clock,
          fault: (p) => {
            if (p === point) throw new Crash(point);
          },
        });
        await expect(
          crashing.execute({ ownerId: owner, tool: "memory.note", key, args, actor: "test" }),
        ).rejects.toThrow(Crash);
        clock += 10 * 60_000;
        const recovered = await executor({ now: () => clock }).execute({
          ownerId: owner,
          tool: "memory.note",
          key,
          args,
          actor: "test",
        });
        const { env } = await import("cloudflare:workers");
        const notes = await env.DB.prepare("SELECT COUNT(*) AS n FROM memory_notes WHERE user_id = ?")
          .bind(owner)
          .first<{ n: number }>();
        // It may have happened: the run is marked partial with remediation, and never re-run.
        expect(recovered).toMatchObject({
          ok: true,
          envelope: { status: "partial", failure: { class: "partial_execution" } },
        });
        if (recovered.ok) expect(recovered.envelope.failure?.remediation).toMatch(/new proposal/);
        expect(notes?.n).toBe(point === "after_effect" ? 1 : 0);
      });
    },
  );

  it("a crashed claim an older version left as 'claimed' (never dispatched) is run once when taken over", async () => {
    const owner = await newOwner();
    const key = uniqueKey("old-claim");
    const args = { ...post(), url: `${TARGET}/effect?k=${key}` };
    const { env } = await import("cloudflare:workers");
    const { hashOf } = await import("../../../src/edge/conveyor/canonical.ts");
    const argsHash = await hashOf({ tool: "http.request", args });
    // The row as the two-step claim wrote it before the send: its lease long gone.
    await env.DB.prepare(
      "INSERT INTO idempotency (owner_id, tool_name, key, args_hash, state, attempt, lease_until, started_at) VALUES (?, 'http.request', ?, ?, 'claimed', 1, 1, 1)",
    )
      .bind(owner, key, argsHash)
      .run();
    const recovered = await executor().execute({
      ownerId: owner,
      tool: "http.request",
      key,
      args,
      actor: "test",
    });
    expect(recovered).toMatchObject({ ok: true, envelope: { status: "executed", attempt: 2 } });
    expect((await targetStats()).paths.filter((p) => p === `POST /effect?k=${key}`)).toHaveLength(1);
  });

  it("records failure classes: the guard refusing a target is permission_denied", async () => {
    const owner = await newOwner();
    const result = await executor().execute({
      ownerId: owner,
      tool: "http.request",
      key: uniqueKey("ssrf"),
      args: { method: "POST", url: "http://169.254.169.254/latest/meta-data/", timeout_ms: 1_000 },
      actor: "test",
    });
    expect(result).toMatchObject({
      ok: true,
      envelope: { status: "failed", failure: { class: "permission_denied" } },
    });
  });
});
