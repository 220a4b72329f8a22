// The conveyor inside a user's UserHub: proposals in, gate (src/policy), a prompt when a person must
// decide, execution exactly once when approved (concurrent callers share one run), expiry, recovery.
import type { BatchItem } from "drizzle-orm/batch";
import type { ConveyorGrantHit, ConveyorGrantKey } from "../../policy/conveyor-grants.ts";
import { proposalGate } from "../../policy/proposal-gate.ts";
import { isRiskClass } from "../../policy/risk-class.ts";
import type { EmergencyControls, Resolution } from "../../protocol/capability.ts";
import type { CreateProposalRequest, ProposalSourceKind, ProposalView } from "../../protocol/conveyor.ts";
import type { AuditEntry } from "../audit/audit-log.ts";
import type { Db } from "../db/client.ts";
import { failure, type HubResult } from "../hub/result.ts";
import { fieldProblems } from "../middleware/validate.ts";
import { hashOf } from "./canonical.ts";
import type { Egress } from "./egress/guard.ts";
import { type ExecuteResult, Executor, type FaultPoint } from "./executor.ts";
import { declaredIdempotent } from "./idempotent-targets.ts";
import * as store from "./proposals.ts";
import type { ToolRegistry } from "./registry.ts";
import type { ToolContext } from "./tool.ts";

/** The hub's one grant store, as the conveyor sees it (src/edge/hub/grant-store.ts). */
export interface ConveyorGrants {
  /** The saved grant that covers this key, if any (matched by src/policy/conveyor-grants.ts). */
  match(key: ConveyorGrantKey): Promise<ConveyorGrantHit | undefined>;
  /** Saves a person's "always" answer on a proposal card (audited as grant.created). */
  save(
    key: ConveyorGrantKey,
    effect: "allow" | "deny",
    by: Decider,
    promptId: string | null,
    now: number,
  ): Promise<void>;
  /** A grant decided a proposal (its last use; audited as grant.used). */
  used(hit: ConveyorGrantHit, proposalId: string, now: number): Promise<void>;
}

export interface ConveyorPorts {
  db: Db;
  grants: ConveyorGrants;
  userId: () => string;
  egress: Egress;
  registry: ToolRegistry;
  emergency: () => EmergencyControls;
  /** Puts a PENDING proposal in the approval queue under the prompt id its row already names. */
  openPrompt: (view: ProposalView, promptId: string) => Promise<void>;
  /** A fresh prompt id (the row is written with it, so opening the prompt needs no second D1 write). */
  newPromptId: () => string;
  /**
   * Audit of a run's steps: queued and sent with the run's last one in one D1 batch (`flushRunAudit`),
   * instead of a round trip each. Absent: each goes at once through `audit`.
   */
  queueAudit?: (entries: AuditEntry[]) => void;
  flushRunAudit?: () => Promise<void>;
  /** The queued run audit as unsent D1 writes, to ride in the batch that ends the run (`sent` once it landed). */
  takeRunAudit?: () => { statements: BatchItem<"sqlite">[]; sent: () => void };
  /** Asks to be woken (onAlarm) at this time, as a backstop for runs and expiries. */
  wakeAt: (at: number) => Promise<void>;
  /**
   * Withdraws one wakeup asked for at `at` (a run's backstop, once the run has ended): without it the hub woke
   * a minute after every executed proposal to read D1 for runs that had all finished.
   */
  withdrawWake?: (at: number) => Promise<void>;
  /** Tells open dashboards a proposal changed. */
  announce: (view: ProposalView) => void;
  audit: (entries: AuditEntry[]) => Promise<void>;
  notifyDashboards?: ToolContext["notifyDashboards"];
  now?: () => number;
  fault?: (point: FaultPoint) => void;
}

export interface Proposer {
  kind: ProposalSourceKind;
  ref: string | null;
  deviceId: string | null;
  actor: string;
  /** Set by the hosted runtime's turnEffect: only a person may approve, and why (no grant stands in). */
  personOnly?: string;
}

export interface Decider {
  actor: string;
  deviceId: string | null;
}

const stateOf = (status: "executed" | "failed" | "partial"): "EXECUTED" | "FAILED" | "PARTIAL" =>
  status === "executed" ? "EXECUTED" : status === "partial" ? "PARTIAL" : "FAILED";

/** A proposal in one of these states has no run left for a backstop to resume. */
const FINAL: ReadonlySet<string> = new Set(["EXECUTED", "FAILED", "PARTIAL"]);

/** How long after an approval the backstop alarm looks for a run that did not finish. */
const RUN_BACKSTOP_MS = 60_000;

export class ConveyorRuntime {
  readonly executor: Executor;
  private readonly ports: ConveyorPorts;
  private readonly now: () => number;
  private readonly inflight = new Map<string, Promise<HubResult<ProposalView>>>();

  constructor(ports: ConveyorPorts) {
    this.ports = ports;
    this.now = ports.now ?? Date.now;
    const queueAudit = ports.queueAudit;
    this.executor = new Executor({
      db: ports.db,
      registry: ports.registry,
      egress: ports.egress,
      audit: queueAudit ? async (entries) => queueAudit(entries) : ports.audit,
      now: this.now,
      ...(ports.notifyDashboards ? { notifyDashboards: ports.notifyDashboards } : {}),
      ...(ports.fault ? { fault: ports.fault } : {}),
      declaredIdempotent: declaredIdempotent(ports.db),
    });
  }

  async propose(
    req: CreateProposalRequest,
    by: Proposer,
  ): Promise<HubResult<{ view: ProposalView; created: boolean }>> {
    const userId = this.ports.userId();
    const tool = this.ports.registry.get(req.tool);
    if (!tool) {
      return failure(
        400,
        "unknown_tool",
        `No tool ${req.tool}. Tools: ${[...this.ports.registry.keys()].join(", ")}.`,
      );
    }
    const parsed = tool.schema.safeParse(req.args);
    if (!parsed.success) {
      const problems = fieldProblems(parsed.error).map((p) => ({
        ...p,
        path: p.path === "(root)" ? "args" : `args.${p.path}`,
      }));
      return failure(
        400,
        "validation_failed",
        `Invalid args for ${req.tool}: check ${problems.map((p) => p.path).join(", ")}.`,
        problems,
      );
    }
    const args = parsed.data;
    const argsHash = await hashOf({ tool: req.tool, args });
    // A connector's class and card depend on the identity's connection (its account, its domain).
    const shaped = await tool.contextual?.(args, { userId, identity: req.identity });
    const riskClass = shaped?.riskClass ?? tool.riskClass(args);
    const summary = shaped?.summary ?? tool.summary(args);
    const key = { tool: req.tool, scope: tool.grantScope(args), riskClass, identity: req.identity };
    const hit = await this.ports.grants.match(key);
    const verdict = proposalGate({
      tool: req.tool,
      riskClass,
      external: tool.external,
      grant: hit?.effect,
      grantClass: hit?.rule.riskClass ?? null,
      grantCoversHigh: tool.grantCoversHigh,
      untrustedSource: by.kind === "webhook",
      ...(by.personOnly ? { personOnly: by.personOnly } : {}),
      emergency: this.ports.emergency(),
    });
    const now = this.now();
    const promptId = verdict.action === "ask" ? this.ports.newPromptId() : null;
    const gate = verdict.action === "deny" ? "none" : verdict.gate;
    // Written in the insert's own batch, and only if the insert created the proposal.
    const audit = (id: string) => [
      this.entry(id, by.actor, "conveyor.proposed", {
        tool: req.tool,
        risk_class: riskClass,
        identity: req.identity,
        source: { kind: by.kind, ref: by.ref },
        gate,
        summary,
      }),
      ...(verdict.action === "ask"
        ? []
        : [
            this.entry(id, "policy", verdict.action === "allow" ? "conveyor.approved" : "conveyor.rejected", {
              reason: verdict.reason,
            }),
          ]),
    ];
    const inserted = await store.insertProposal(
      this.ports.db,
      {
        promptId,
        userId,
        tool: req.tool,
        identity: req.identity,
        idempotencyKey: req.idempotency_key,
        argsHash,
        args,
        riskClass,
        justification: req.justification,
        summary,
        source: { kind: by.kind, ref: by.ref },
        gate,
        gateReason: verdict.reason,
        state: verdict.action === "deny" ? "REJECTED" : verdict.action === "allow" ? "APPROVED" : "PENDING",
        decidedBy: verdict.action === "ask" ? null : "policy",
        createdAt: now,
        expiresAt: now + (req.expires_in_s ?? store.DEFAULT_PROPOSAL_TTL_S) * 1000,
        createdByDevice: by.deviceId,
      },
      audit,
    );
    const row = inserted.row;
    if (inserted.created && hit && verdict.byGrant) await this.ports.grants.used(hit, row.id, now);
    if (!inserted.created) {
      if (row.argsHash !== argsHash) {
        await this.ports.audit([
          this.entry(row.id, by.actor, "conveyor.idempotency_conflict", {
            tool: req.tool,
            idempotency_key: req.idempotency_key,
            stored_args_hash: row.argsHash,
            args_hash: argsHash,
          }),
        ]);
        return failure(
          409,
          "idempotency_conflict",
          `Key ${req.idempotency_key} already names proposal ${row.id} with other arguments; use a new key for a new action.`,
          { proposal_id: row.id },
        );
      }
      return { ok: true, value: { view: store.proposalView(row), created: false } };
    }
    if (verdict.action === "ask" && promptId) {
      const view = store.proposalView(row);
      await this.ports.openPrompt(view, promptId);
      return { ok: true, value: { view, created: true } };
    }
    if (verdict.action === "allow") {
      const ran = await this.execute(row.id, by.actor, row);
      if (ran.ok) return { ok: true, value: { view: ran.value, created: true } };
    }
    return { ok: true, value: { view: store.proposalView(row), created: true } };
  }

  /** Called by the approval queue when the proposal's prompt is resolved (by a person or its deadline). */
  async onResolved(
    proposalId: string,
    resolution: Resolution,
    by: Decider,
    promptId: string | null,
  ): Promise<void> {
    const now = this.now();
    const allow = resolution.startsWith("allow");
    // Decided in one statement that also answers with the row (no read first).
    const moved = await store.decide(
      this.ports.db,
      this.ports.userId(),
      proposalId,
      allow,
      resolution === "deny_timeout",
      by.actor,
      now,
    );
    if (!moved) return;
    const to = moved.state as "APPROVED" | "REJECTED" | "EXPIRED";
    const expired = to === "EXPIRED";
    const actor = moved.decidedBy ?? by.actor;
    const decided = [
      {
        ...this.entry(moved.id, actor, `conveyor.${to.toLowerCase()}`, { resolution, prompt_id: promptId }),
        deviceId: by.deviceId,
        decision: resolution,
      },
    ];
    // An approval's audit waits in the hub's outbox and reaches D1 with its run's end, in that batch.
    const queue = to === "APPROVED" ? this.ports.queueAudit : undefined;
    if (queue) queue(decided);
    else await this.ports.audit(decided);
    const row = moved;
    if (!expired && (resolution === "allow_always" || resolution === "deny_always")) {
      const tool = this.ports.registry.get(row.tool);
      if (tool) {
        const args = JSON.parse(row.args);
        // The key the card showed: the proposal's own class (as stored) and identity, never a wider one.
        const key = {
          tool: row.tool,
          scope: tool.grantScope(args),
          riskClass: row.riskClass as ConveyorGrantKey["riskClass"],
          identity: row.identity,
        };
        await this.ports.grants.save(key, allow ? "allow" : "deny", by, promptId, now);
      }
    }
    this.ports.announce(store.proposalView(moved));
    if (to === "APPROVED") {
      const backstop = now + RUN_BACKSTOP_MS;
      await this.ports.wakeAt(backstop);
      // Runs now (with the row just written, not read again); the backstop alarm resumes it if this
      // instance dies first, and is withdrawn once the run has ended (a run that fails or is still leased
      // elsewhere keeps it).
      void this.execute(row.id, "system", moved).then((result) => {
        if (!result.ok || !FINAL.has(result.value.state)) return;
        this.ports
          .withdrawWake?.(backstop)
          .catch((error: unknown) => console.error("[conveyor.backstop] not withdrawn:", error));
      });
    }
  }

  /** Runs an approved proposal once; concurrent callers share the same run and get the same answer. */
  execute(proposalId: string, actor: string, known?: store.ProposalRow): Promise<HubResult<ProposalView>> {
    const running = this.inflight.get(proposalId);
    if (running) return running;
    const run = this.runOnce(proposalId, actor, known).finally(() => this.inflight.delete(proposalId));
    this.inflight.set(proposalId, run);
    return run;
  }

  private async runOnce(
    proposalId: string,
    actor: string,
    known?: store.ProposalRow,
  ): Promise<HubResult<ProposalView>> {
    const userId = this.ports.userId();
    const row = known ?? (await store.byId(this.ports.db, userId, proposalId));
    if (!row) return failure(404, "not_found", `No proposal ${proposalId}.`);
    if (row.state === "EXECUTED" || row.state === "FAILED" || row.state === "PARTIAL") {
      return { ok: true, value: store.proposalView(row) };
    }
    if (row.state !== "APPROVED") {
      return failure(
        409,
        "proposal_not_pending",
        `Proposal ${proposalId} is ${row.state}; only an approved proposal runs.`,
      );
    }
    const takeRunAudit = this.ports.takeRunAudit;
    const result: ExecuteResult = await this.executor.execute({
      ownerId: userId,
      tool: row.tool,
      key: row.idempotencyKey,
      args: JSON.parse(row.args),
      proposalId: row.id,
      // The approved proposal's identity, and only it: an approval as one never runs as the other.
      identity: row.identity,
      // And its class: a tool that judges its class again at run time refuses anything higher.
      ...(isRiskClass(row.riskClass) ? { approvedRiskClass: row.riskClass } : {}),
      actor,
      // The proposal's end and the run's queued audit go to D1 in the batch that stores the result.
      alongside: (envelope) => {
        const queued = takeRunAudit?.() ?? { statements: [], sent: () => {} };
        return {
          statements: [
            store.finishQuery(
              this.ports.db,
              row,
              stateOf(envelope.status),
              envelope.attempt,
              JSON.stringify(envelope),
              this.now(),
            ),
            ...queued.statements,
          ],
          sent: queued.sent,
        };
      },
    });
    if (!result.ok)
      return failure(409, result.code === "unknown_tool" ? "conflict" : result.code, result.message);
    const to = stateOf(result.envelope.status);
    const envelope = JSON.stringify(result.envelope);
    const finished = result.alongside?.[0];
    let moved = Array.isArray(finished) && finished.length === 1;
    const now = this.now();
    if (!moved) {
      // A replayed or taken-over run: record its stored result on the proposal on its own.
      moved = await store.transition(this.ports.db, row.id, "APPROVED", to, { finishedAt: now, envelope });
      await this.ports.flushRunAudit?.();
    }
    // Another caller recorded the same run first: the stored row is the answer.
    const view = moved
      ? store.proposalView({ ...row, state: to, finishedAt: now, envelope }, result.envelope)
      : store.proposalView((await store.byId(this.ports.db, userId, row.id)) ?? row);
    this.ports.announce(view);
    return { ok: true, value: view };
  }

  /** Backstop: expire overdue PENDING proposals, resume approved ones whose run did not finish. */
  async onAlarm(): Promise<void> {
    const userId = this.ports.userId();
    const now = this.now();
    for (const row of await store.dueForExpiry(this.ports.db, userId, now)) {
      await this.onResolved(row.id, "deny_timeout", { actor: "timeout", deviceId: null }, row.promptId);
    }
    const unfinished = await store.approvedUnfinished(this.ports.db, userId);
    for (const row of unfinished) {
      const result = await this.execute(row.id, "system");
      // A run still leased elsewhere: look again after the backstop interval.
      if (!result.ok && result.code === "idempotency_key_in_use")
        await this.ports.wakeAt(now + RUN_BACKSTOP_MS);
    }
  }

  private entry(target: string, actor: string, event: string, details: Record<string, unknown>): AuditEntry {
    return { userId: this.ports.userId(), actor, event, target, details };
  }
}
