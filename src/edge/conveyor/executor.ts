// The idempotent executor: one run per (owner, tool, key), whatever retries, crashes or concurrent
// callers do. D1's idempotency row is the claim: `dispatched → executed | failed`, fenced by `attempt`,
// with a lease so a crashed run is noticed and recovered without a second effect. A run costs two D1 round
// trips: the claim (which is also the dispatch mark) and its result (with whatever the caller records
// alongside it, in one batch).
import { and, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { RiskClass } from "../../policy/risk-class.ts";
import { ExecutionEnvelope } from "../../protocol/conveyor.ts";
import type { AuditEntry } from "../audit/audit-log.ts";
import { redact } from "../audit/redact.ts";
import type { Db } from "../db/client.ts";
import { idempotency } from "../db/schema.ts";
import { hashOf } from "./canonical.ts";
import type { Egress } from "./egress/guard.ts";
import type { ToolRegistry } from "./registry.ts";
import type { ConveyorTool, ToolContext, ToolOutcome } from "./tool.ts";

/** Extra lease beyond a tool's own time limit before a claim counts as crashed. */
const LEASE_MARGIN_MS = 30_000;

export interface ExecuteRequest {
  ownerId: string;
  tool: string;
  key: string;
  /** Already validated by the tool's schema. */
  args: unknown;
  proposalId?: string | null;
  /** The identity the run acts as (a proposal's own; an inline read's as planned). Absent: `bot`. */
  identity?: "user" | "bot";
  /** The class the proposal was approved at (ToolContext.approvedRiskClass); absent for inline reads. */
  approvedRiskClass?: RiskClass;
  /** Who asked for the run, for the audit (`device:…`, `system`, `workflow:…`). */
  actor: string;
  /**
   * Writes that go with this run's result (the proposal's transition, the run's queued audit): sent in the
   * same D1 batch as the result, so the run's end is one round trip. Called once the run's audit is queued.
   */
  alongside?: (envelope: ExecutionEnvelope) => Alongside;
}

export interface Alongside {
  statements: BatchItem<"sqlite">[];
  /** The batch landed (with this run's result as the record). */
  sent: () => void;
}

/** What `alongside`'s statements answered, when they were sent with this run's own result. */
export type AlongsideResults = unknown[];

export type ExecuteResult =
  | { ok: true; envelope: ExecutionEnvelope; replayed: boolean; alongside?: AlongsideResults }
  | { ok: false; code: "idempotency_conflict" | "idempotency_key_in_use" | "unknown_tool"; message: string };

/** Points where tests inject a crash (throw) to prove recovery never runs an effect twice. */
export type FaultPoint = "after_claim" | "after_dispatch_mark" | "after_effect";

export interface ExecutorPorts {
  db: Db;
  registry: ToolRegistry;
  egress: Egress;
  audit(entries: AuditEntry[]): Promise<void>;
  now?: () => number;
  notifyDashboards?: ToolContext["notifyDashboards"];
  fault?: (point: FaultPoint) => void;
  /**
   * Whether the person declared this run's target idempotent (it honours Idempotency-Key), so a run that
   * crashed after dispatch may be sent again. Absent: only tools known idempotent are.
   */
  declaredIdempotent?: (ownerId: string, tool: ConveyorTool, args: unknown) => Promise<boolean>;
}

type Row = typeof idempotency.$inferSelect;

export class Executor {
  private readonly ports: ExecutorPorts;
  private readonly now: () => number;

  constructor(ports: ExecutorPorts) {
    this.ports = ports;
    this.now = ports.now ?? Date.now;
  }

  async execute(req: ExecuteRequest): Promise<ExecuteResult> {
    const tool = this.ports.registry.get(req.tool);
    if (!tool) return { ok: false, code: "unknown_tool", message: `No tool ${req.tool} in the registry.` };
    // A key reused as the other identity is another action, never a replay of this one's result (bot, the
    // default, hashes as before identities mattered).
    const argsHash = await hashOf({
      tool: req.tool,
      args: req.args,
      ...(req.identity === "user" ? { identity: "user" } : {}),
    });
    const now = this.now();
    const lease = now + tool.timeoutMs(req.args) + LEASE_MARGIN_MS;
    const db = this.ports.db;
    const claimed = await db
      .insert(idempotency)
      .values({
        ownerId: req.ownerId,
        toolName: req.tool,
        key: req.key,
        argsHash,
        // Claimed and marked sent in one statement: a crash from here on may have sent the effect, so a
        // recovered run ends PARTIAL unless a repeat is known harmless (a "claimed" row, which only older
        // versions wrote, is the one phase known not to have sent).
        state: "dispatched",
        attempt: 1,
        leaseUntil: lease,
        startedAt: now,
      })
      .onConflictDoNothing()
      .returning({ attempt: idempotency.attempt });
    if (claimed.length === 1) return this.run(tool, req, argsHash, 1, "fresh", now);

    const row = await this.row(req);
    if (!row) return this.execute(req); // deleted by retention between the two statements
    if (row.argsHash !== argsHash) {
      await this.ports.audit([
        this.auditEntry(req, "conveyor.idempotency_conflict", {
          stored_args_hash: row.argsHash,
          args_hash: argsHash,
        }),
      ]);
      return {
        ok: false,
        code: "idempotency_conflict",
        message: `Key ${req.key} was already used for ${req.tool} with other arguments; use a new key for a new action.`,
      };
    }
    if (row.state === "executed" || row.state === "failed")
      return { ok: true, envelope: this.stored(row), replayed: true };
    if (row.leaseUntil > now) {
      return {
        ok: false,
        code: "idempotency_key_in_use",
        message: `The first run of key ${req.key} is still in progress; ask again when it has finished.`,
      };
    }
    // The lease ran out: the run that held it crashed. Take it over, fenced on the attempt number.
    const next = row.attempt + 1;
    const taken = await db
      .update(idempotency)
      .set({ attempt: next, leaseUntil: lease })
      .where(and(this.keyOf(req), eq(idempotency.attempt, row.attempt)))
      .returning({ attempt: idempotency.attempt });
    if (taken.length !== 1) return this.execute(req);
    await this.ports.audit([this.auditEntry(req, "conveyor.recovered", { attempt: next, phase: row.state })]);
    return this.run(tool, req, argsHash, next, row.state, now);
  }

  private async run(
    tool: ConveyorTool,
    req: ExecuteRequest,
    argsHash: string,
    attempt: number,
    /** fresh: this call's own claim, already marked dispatched; the others: a crashed run taken over. */
    phase: "fresh" | "claimed" | "dispatched",
    startedAt: number,
  ): Promise<ExecuteResult> {
    this.ports.fault?.("after_claim");
    let outcome: ToolOutcome;
    if (phase === "dispatched" && !(await this.resendSafe(tool, req))) {
      // A crashed run may already have sent an effect nobody deduplicates: never send it again. Sending it
      // once more is the person's call, as a new proposal (a new approval).
      outcome = {
        status: "partial",
        failure: {
          class: "partial_execution",
          message: "an earlier attempt crashed after starting the effect; it may or may not have happened",
          remediation:
            "Check the outcome by hand. The effect is not repeated; an undo or a retry is a new proposal with a new key (and a new approval).",
        },
        verification: { outcome: "failed", detail: "unknown outcome after a crash" },
      };
    } else {
      if (phase !== "fresh") {
        const marked = await this.ports.db
          .update(idempotency)
          .set({ state: "dispatched" })
          .where(and(this.keyOf(req), eq(idempotency.attempt, attempt)))
          .returning({ attempt: idempotency.attempt });
        // Fenced: if another attempt took the claim over since, this one must not dispatch anything.
        if (marked.length !== 1) return this.execute(req);
      }
      await this.ports.audit([this.auditEntry(req, "conveyor.executing", { attempt, args_hash: argsHash })]);
      this.ports.fault?.("after_dispatch_mark");
      outcome = await this.invoke(tool, req);
      this.ports.fault?.("after_effect");
    }
    const envelope = ExecutionEnvelope.parse({
      tool: tool.name,
      input: redact(req.args ?? {}) as Record<string, unknown>,
      started_at: new Date(startedAt).toISOString(),
      finished_at: new Date(this.now()).toISOString(),
      status: outcome.status,
      attempt,
      ...("result" in outcome && outcome.result !== undefined ? { result: redact(outcome.result) } : {}),
      ...(outcome.status === "executed" ? {} : { failure: outcome.failure }),
      verification: outcome.verification,
    });
    const text = JSON.stringify(envelope);
    // Audited before the result is stored, so a queued audit rides in the same batch as the result.
    await this.ports.audit([
      this.auditEntry(
        req,
        outcome.status === "executed"
          ? "conveyor.executed"
          : outcome.status === "partial"
            ? "conveyor.partial"
            : "conveyor.failed",
        {
          attempt,
          ...(outcome.status === "executed"
            ? {}
            : { failure_class: outcome.failure.class, message: outcome.failure.message }),
          verification: outcome.verification.outcome,
        },
      ),
    ]);
    const store = this.ports.db
      .update(idempotency)
      .set({
        state: outcome.status === "executed" ? "executed" : "failed",
        finishedAt: this.now(),
        result: text,
        resultHash: await hashOf(envelope),
      })
      .where(and(this.keyOf(req), eq(idempotency.attempt, attempt)))
      .returning({ attempt: idempotency.attempt });
    const along = req.alongside?.(envelope);
    const [stored, ...alongside] = along
      ? await this.ports.db.batch([store, ...along.statements])
      : [await store];
    along?.sent();
    if (stored.length !== 1) {
      // Someone took the claim over after our lease ran out; theirs is the record. Answer with it.
      const row = await this.row(req);
      if (row?.result) return { ok: true, envelope: this.stored(row), replayed: true };
    }
    return { ok: true, envelope, replayed: false, ...(along ? { alongside } : {}) };
  }

  /** A possible send may be repeated only where a repeat is known harmless. */
  private async resendSafe(tool: ConveyorTool, req: ExecuteRequest): Promise<boolean> {
    if (tool.idempotentDownstream) return true;
    return (await this.ports.declaredIdempotent?.(req.ownerId, tool, req.args)) ?? false;
  }

  private async invoke(tool: ConveyorTool, req: ExecuteRequest): Promise<ToolOutcome> {
    const ctx: ToolContext = {
      userId: req.ownerId,
      db: this.ports.db,
      egress: this.ports.egress,
      idempotencyKey: `${req.tool}:${req.key}`,
      proposalId: req.proposalId ?? null,
      identity: req.identity ?? "bot",
      ...(req.approvedRiskClass ? { approvedRiskClass: req.approvedRiskClass } : {}),
      now: this.now,
      ...(this.ports.notifyDashboards ? { notifyDashboards: this.ports.notifyDashboards } : {}),
    };
    try {
      return await tool.execute(req.args, ctx);
    } catch (error) {
      console.error(`[conveyor] ${tool.name} threw`, error);
      return {
        status: "failed",
        failure: { class: "command_error", message: `${tool.name} failed unexpectedly` },
        verification: { outcome: "failed", detail: "the tool threw" },
      };
    }
  }

  private keyOf(req: ExecuteRequest) {
    return and(
      eq(idempotency.ownerId, req.ownerId),
      eq(idempotency.toolName, req.tool),
      eq(idempotency.key, req.key),
    );
  }

  private async row(req: ExecuteRequest): Promise<Row | undefined> {
    return (await this.ports.db.select().from(idempotency).where(this.keyOf(req)))[0];
  }

  private stored(row: Row): ExecutionEnvelope {
    return ExecutionEnvelope.parse(JSON.parse(row.result ?? "null"));
  }

  private auditEntry(req: ExecuteRequest, event: string, details: Record<string, unknown>): AuditEntry {
    return {
      userId: req.ownerId,
      actor: req.actor,
      event,
      target: req.proposalId ?? `${req.tool}:${req.key}`,
      details: { tool: req.tool, key: req.key, ...details },
    };
  }
}
