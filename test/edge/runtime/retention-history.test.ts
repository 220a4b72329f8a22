// Retention of per-user history (the `history` class): proposals, jobs, turns, their link rows and job threads
// older than the retention go; anything younger, and anything not over (a pending proposal, a running turn and
// its job) stays, however old. This is what bounds D1's bytes per user (docs/scale.md).
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDb } from "../../../src/edge/db/client.ts";
import { jobs, proposedActions, threads, turnProposals, turns, users } from "../../../src/edge/db/schema.ts";
import { DEFAULT_RETENTION_DAYS, retentionDays, sweep } from "../../../src/edge/runtime/retention.ts";

const DAY = 86_400_000;
type ProposalState = (typeof proposedActions.$inferInsert)["state"];
type TurnState = (typeof turns.$inferInsert)["state"];

describe("retention of proposals, jobs and turns", () => {
  it("keeps 90 days by default, and the class is configurable", () => {
    expect(DEFAULT_RETENTION_DAYS.history).toBe(90);
    expect(retentionDays("history=30").history).toBe(30);
  });

  it("removes finished history older than the retention, and nothing younger or unfinished", async () => {
    const db = openDb(env.DB);
    const now = Date.UTC(2033, 0, 1);
    const tag = crypto.randomUUID().slice(0, 8);
    const userId = `usr_hist_${tag}`;
    await db
      .insert(users)
      .values({ id: userId, name: "history", role: "member", createdAt: now - 400 * DAY });

    const proposal = (name: string, state: ProposalState, ageDays: number) => ({
      id: `pa_${tag}_${name}`,
      userId,
      tool: "http.request",
      identity: "bot" as const,
      idempotencyKey: `${tag}-${name}`,
      argsHash: "x",
      args: "{}",
      riskClass: "LOW",
      justification: "test",
      summary: "{}",
      sourceKind: "api" as const,
      state,
      gate: "ask",
      createdAt: now - ageDays * DAY,
      expiresAt: now - ageDays * DAY + 3_600_000,
    });
    await db
      .insert(proposedActions)
      .values([
        proposal("old_executed", "EXECUTED", 91),
        proposal("old_rejected", "REJECTED", 200),
        proposal("old_expired", "EXPIRED", 91),
        proposal("old_pending", "PENDING", 91),
        proposal("old_approved", "APPROVED", 91),
        proposal("young_executed", "EXECUTED", 89),
      ]);

    // A job, its thread and turn, and a proposal link, of a given age; the turn finished or still running.
    const job = async (name: string, ageDays: number, state: TurnState) => {
      const at = now - ageDays * DAY;
      const finished = state !== "running" && state !== "waiting";
      await db.insert(threads).values({
        id: `thr_${tag}_${name}`,
        userId,
        title: name,
        jobId: `job_${tag}_${name}`,
        createdAt: at,
        updatedAt: at,
      });
      await db.insert(jobs).values({
        id: `job_${tag}_${name}`,
        userId,
        title: name,
        instructions: "x",
        triggerKind: "api",
        threadId: `thr_${tag}_${name}`,
        turnId: `trn_${tag}_${name}`,
        createdAt: at,
      });
      await db.insert(turns).values({
        id: `trn_${tag}_${name}`,
        userId,
        threadId: `thr_${tag}_${name}`,
        jobId: `job_${tag}_${name}`,
        kind: "job",
        state,
        budgets: "{}",
        triggerMessageId: `msg_${tag}_${name}`,
        createdAt: at,
        finishedAt: finished ? at + 1000 : null,
      });
      await db.insert(turnProposals).values({
        proposalId: `pa_${tag}_link_${name}`,
        turnId: `trn_${tag}_${name}`,
        idx: 0,
        position: 0,
        userId,
      });
    };
    await job("old_done", 91, "succeeded");
    await job("old_failed", 365, "failed");
    await job("old_running", 91, "waiting");
    await job("young_done", 89, "succeeded");

    const report = await sweep(db, retentionDays(undefined), now);
    expect(report.removed.proposed_actions).toBeGreaterThanOrEqual(3);
    expect(report.more).toEqual([]);

    const ids = async <T extends { id: string }>(rows: Promise<T[]>) => (await rows).map((r) => r.id).sort();
    expect(await ids(db.select().from(proposedActions).where(eq(proposedActions.userId, userId)))).toEqual(
      [`pa_${tag}_old_approved`, `pa_${tag}_old_pending`, `pa_${tag}_young_executed`].sort(),
    );
    const kept = [`${tag}_old_running`, `${tag}_young_done`].sort();
    expect(await ids(db.select().from(jobs).where(eq(jobs.userId, userId)))).toEqual(
      kept.map((k) => `job_${k}`),
    );
    expect(await ids(db.select().from(turns).where(eq(turns.userId, userId)))).toEqual(
      kept.map((k) => `trn_${k}`),
    );
    expect(await ids(db.select().from(threads).where(eq(threads.userId, userId)))).toEqual(
      kept.map((k) => `thr_${k}`),
    );
    const links = await db.select().from(turnProposals).where(eq(turnProposals.userId, userId));
    expect(links.map((l) => l.turnId).sort()).toEqual(kept.map((k) => `trn_${k}`));

    // A second sweep finds nothing more of this user's: what stays is younger or unfinished.
    await sweep(db, retentionDays(undefined), now);
    expect(await db.select().from(jobs).where(eq(jobs.userId, userId))).toHaveLength(2);
  });

  it("leaves a chat thread (no job) alone: the person's conversations are not history", async () => {
    const db = openDb(env.DB);
    const now = Date.UTC(2034, 0, 1);
    const id = `thr_chat_${crypto.randomUUID().slice(0, 8)}`;
    await db.insert(users).values({ id: `usr_${id}`, name: "chat", role: "member", createdAt: 0 });
    await db.insert(threads).values({ id, userId: `usr_${id}`, title: "chat", createdAt: 0, updatedAt: 0 });
    await sweep(db, retentionDays(undefined), now);
    expect(await db.select().from(threads).where(eq(threads.id, id))).toHaveLength(1);
  });
});
