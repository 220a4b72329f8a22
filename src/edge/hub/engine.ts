// The hub's modules wired together: call intake, the prompt queue, resolution, views, the one schedule
// and the outbox. UserHub is a thin shell over this.
import { CALL_RETENTION_MS, type CompiledPolicy, retentionCutoff } from "../../policy/index.ts";
import type { DecisionRequest, DecisionResponse } from "../../protocol/decisions.ts";
import { AccountAdmin } from "./account-admin.ts";
import { CallIntake } from "./call-intake.ts";
import { type Holder, responseOf } from "./call-store.ts";
import { compileAccountPolicy } from "./edge-policy.ts";
import { UndoWindows } from "./held-decisions.ts";
import { HubContext, type HubPorts } from "./hub-context.ts";
import { type DecideOutcome, PromptQueue } from "./prompt-queue.ts";
import { Resolver } from "./resolution.ts";

export type { Decider, HubPorts } from "./hub-context.ts";
export type { DecideOutcome } from "./prompt-queue.ts";

export class HubEngine {
  readonly ctx: HubContext;
  readonly queue: PromptQueue;
  readonly intake: CallIntake;
  readonly resolver: Resolver;
  readonly admin: AccountAdmin;
  readonly undoWindows: UndoWindows;
  private compiled: { text: string | undefined; policy: CompiledPolicy } | undefined;

  constructor(ports: HubPorts) {
    this.ctx = new HubContext(ports);
    this.queue = new PromptQueue(this.ctx);
    this.intake = new CallIntake(this.ctx, this.queue, () => this.accountPolicy());
    this.ctx.policyMode = () => this.accountPolicy().mode;
    this.resolver = new Resolver(this.ctx);
    this.admin = new AccountAdmin(this.ctx);
    this.undoWindows = new UndoWindows(this.ctx, this.resolver);
    this.ctx.schedule.register({
      name: "deadlines",
      nextWake: () => this.nextDeadline(),
      onAlarm: (now) => this.onAlarm(now),
    });
  }

  /** The earliest deadline the hub keeps: prompt expiry, lapsing holds, idle session grants, outbox retries,
   * held answers' commit times, call retention. Deadlines themselves come from policy/deadlines.ts. */
  private nextDeadline(): number | null {
    const { calls, prompts, sessions, outbox, held } = this.ctx;
    const oldest = calls.oldestDecided();
    const candidates = [
      prompts.nextExpiry(),
      calls.nextHoldLapse(),
      sessions.nextIdleExpiry(),
      outbox.nextAttempt(),
      held.next(),
      oldest === null ? null : oldest + CALL_RETENTION_MS,
    ].filter((t): t is number => t !== null);
    return candidates.length ? Math.min(...candidates) : null;
  }

  private accountPolicy(): CompiledPolicy {
    const text = this.ctx.settings.accountPolicy()?.text;
    if (this.compiled && this.compiled.text === text) return this.compiled.policy;
    const result = compileAccountPolicy(text);
    // A stored policy always compiled when it was saved; if it somehow no longer does, ask for everything.
    const policy = result.ok
      ? result.policy
      : (compileAccountPolicy(undefined) as { ok: true; policy: CompiledPolicy }).policy;
    this.compiled = { text, policy };
    return policy;
  }

  decide(request: DecisionRequest, requester: string | null, holder: Holder): Promise<DecideOutcome> {
    return this.intake.decide(request, requester, holder);
  }

  /** Waits for a pending call's answer until `until` (a long poll); undefined if still undecided then. */
  waitFor(callId: string, until: number): Promise<DecisionResponse | undefined> {
    const call = this.ctx.calls.get(callId);
    const decided = call && responseOf(call);
    if (decided) return Promise.resolve(decided);
    return this.ctx.waiters.wait(callId, until, async () => {
      // The alarm may be late; settle anything overdue before giving up.
      await this.onAlarm(Date.now());
      const late = this.ctx.calls.get(callId);
      return late ? responseOf(late) : undefined;
    });
  }

  /** A call's answer, or where it waits; the device that sent a REST call renews its hold by asking. */
  decisionFor(
    callId: string,
    asker?: string | null,
  ): { response?: DecisionResponse; promptId?: string; expiresAt?: number } | undefined {
    const call = this.ctx.calls.get(callId);
    if (!call) return undefined;
    const response = responseOf(call);
    if (response) return { response };
    if (asker !== undefined && asker === call.device_id && call.holder !== "socket")
      this.queue.rehold(call, "poll", Date.now());
    const prompt = call.prompt_id ? this.ctx.prompts.get(call.prompt_id) : undefined;
    return { promptId: call.prompt_id ?? undefined, ...(prompt ? { expiresAt: prompt.expires_at } : {}) };
  }

  /** Every deadline's work, then the next alarm. */
  async onAlarm(now = Date.now()): Promise<void> {
    const { ctx } = this;
    ctx.schedule.fired();
    await ctx.grants.load().catch(() => undefined);
    // A held answer settles before its prompt would time out (its commit-at is before the deadline).
    await this.undoWindows.commitDue(now);
    await this.resolver.expireDue(now);
    this.queue.releaseOrphans(now);
    this.queue.abandonLapsed(now);
    ctx.sessions.pruneIdle(now);
    ctx.confirmations.prune(now);
    ctx.calls.prune(retentionCutoff(now));
    ctx.prompts.prune(retentionCutoff(now));
    await ctx.flush();
  }
}
