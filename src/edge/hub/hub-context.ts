// What every hub module shares: the platform ports, the stores, and the one way to record audit (the outbox).

import type { PolicyMode } from "../../policy/index.ts";
import type { Resolution } from "../../protocol/capability.ts";
import type { DecisionResponse } from "../../protocol/decisions.ts";
import type { CapabilityPrompt, ResolvedPrompt } from "../../protocol/prompts.ts";
import type { ServerMessage } from "../../protocol/socket.ts";
import { type AuditEntry, auditRow } from "../audit/audit-log.ts";
import type { Db } from "../db/client.ts";
import { type CallRow, CallStore } from "./call-store.ts";
import { Confirmations } from "./confirmations.ts";
import { GrantStore } from "./grant-store.ts";
import { HeldStore } from "./held-store.ts";
import { Outbox, SAFETY_DELAY_MS } from "./outbox.ts";
import { type PromptRow, PromptStore } from "./prompt-store.ts";
import { promptView, resolvedView } from "./prompt-view.ts";
import { proposalOfPrompt, proposalPromptView } from "./proposal-prompts.ts";
import { Schedule } from "./schedule.ts";
import { SessionGrants } from "./session-grants.ts";
import { HubSettings } from "./settings.ts";
import { Waiters } from "./waiters.ts";

export interface HubPorts {
  sql: SqlStorage;
  db: Db;
  /** Runs `fn` as one SQLite transaction: all of it or none of it. */
  transaction: <T>(fn: () => T) => T;
  userId: () => string;
  toDashboards: (message: ServerMessage) => void;
  toDevice: (deviceId: string, message: ServerMessage) => void;
  /** Every connected companion (grant revocations reach their caches at once). */
  toCompanions?: (message: ServerMessage) => void;
  /** Whether any socket of this device is open now. */
  deviceConnected: (deviceId: string) => boolean;
  setAlarm: (at: number) => Promise<void>;
  defaultTimeoutMs: number;
  /** The conveyor: told when a proposal's prompt is resolved (its wakeups are an AlarmSource of the schedule). */
  proposals?: {
    onResolved(proposalId: string, resolution: Resolution, by: Decider, promptId: string): Promise<void>;
  };
}

/** Who calls the hub: the user, and the device whose token it presented (null for an admin). */
export interface Caller {
  userId: string;
  deviceId: string | null;
}

export interface Decider {
  deviceId: string | null;
  actor: string;
}

/** The audit actor of a caller: `device:<id>`, or `api` without a device. */
export function deciderOf(caller: Caller): Decider {
  return { deviceId: caller.deviceId, actor: caller.deviceId ? `device:${caller.deviceId}` : "api" };
}

export class HubContext {
  readonly ports: HubPorts;
  readonly calls: CallStore;
  readonly prompts: PromptStore;
  readonly settings: HubSettings;
  readonly grants: GrantStore;
  readonly sessions: SessionGrants;
  readonly confirmations: Confirmations;
  /** Answers waiting out their undo window (held-decisions.ts). */
  readonly held: HeldStore;
  readonly outbox: Outbox;
  readonly waiters = new Waiters();
  /** The one alarm: the engine, the conveyor and the runtime register their AlarmSources on it. */
  readonly schedule: Schedule;
  /** The account policy's mode, for the audit's policy_mode (the engine wires it to the compiled policy). */
  policyMode: () => PolicyMode = () => "prompt";

  constructor(ports: HubPorts) {
    this.ports = ports;
    this.calls = new CallStore(ports.sql);
    this.prompts = new PromptStore(ports.sql);
    this.settings = new HubSettings(ports.sql);
    this.grants = new GrantStore(ports.sql, ports.db, ports.userId);
    this.sessions = new SessionGrants(ports.sql);
    this.confirmations = new Confirmations(ports.sql);
    this.held = new HeldStore(ports.sql);
    // A drained outbox no longer needs the safety alarm it armed (nor one for a deadline that went with the
    // change it sent, such as a decided call's hold): the alarm moves to the next deadline left instead of
    // waking the hub for nothing and re-arming (schedule.ts, relax).
    this.outbox = new Outbox(ports.sql, ports.db, () =>
      this.schedule.relax().catch((error: unknown) => console.error("[UserHub.schedule]", error)),
    );
    this.schedule = new Schedule(ports.setAlarm);
  }

  /** After a change: send what the outbox holds and re-arm the alarm (never throws; the alarm retries). */
  async flush(): Promise<void> {
    try {
      await this.outbox.drain();
    } finally {
      await this.schedule.arm();
    }
  }

  /**
   * After the person's change (started at `mark`, from `outbox.mark()`): its own D1 writes go now, ahead
   * of any companion backlog the drain is working through; the rest drain soon. Never throws.
   */
  async flushOwn(mark: number): Promise<void> {
    try {
      await this.outbox.sendSince(mark);
    } finally {
      this.flushSoon();
    }
  }

  /** Drains soon (batched with concurrent decisions) and keeps the alarm armed; never waits, never throws. */
  flushSoon(now = Date.now()): void {
    void this.outbox.drainSoon();
    this.schedule
      .armBy(now + SAFETY_DELAY_MS)
      .catch((error: unknown) => console.error("[UserHub.schedule]", error));
  }

  /** Tells the callers of decided calls: the device that sent each, and any waiting POST. */
  deliver(answers: readonly { call: CallRow; response: DecisionResponse }[]): void {
    for (const { call, response } of answers) {
      if (call.device_id)
        this.ports.toDevice(call.device_id, { type: "capability_decision", data: response });
      this.waiters.wake(call.call_id, response);
    }
  }

  /** The card of an open prompt: the calls still waiting, or the proposal it asks about. */
  promptCard(prompt: PromptRow): CapabilityPrompt {
    const base = promptView(prompt, this.calls.pendingOfPrompt(prompt.id));
    const proposal = prompt.kind === "proposal" ? proposalOfPrompt(this.ports.sql, prompt.id) : undefined;
    return proposal ? proposalPromptView(base, proposal) : base;
  }

  /** The card of a resolved prompt: every call it had, or its proposal. */
  resolvedCard(prompt: PromptRow): ResolvedPrompt {
    const base = resolvedView(prompt, this.calls.ofPrompt(prompt.id));
    const proposal = prompt.kind === "proposal" ? proposalOfPrompt(this.ports.sql, prompt.id) : undefined;
    return proposal ? { ...base, ...proposalPromptView(base, proposal) } : base;
  }

  /** Inside a transaction: queues audit entries (redacted now) for D1. */
  audit(entries: readonly AuditEntry[], now: number): void {
    this.outbox.add(
      entries.map((e) => ({ kind: "audit", row: auditRow(e) })),
      now,
    );
  }
}
