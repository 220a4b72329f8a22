// What a conveyor tool is: a name, a risk class, a zod schema, a rendered summary and an executor.
import type { z } from "zod";
import type { RiskClass } from "../../policy/risk-class.ts";
import type { FailureClass, ProposalSummary, Verification } from "../../protocol/conveyor.ts";
import type { Db } from "../db/client.ts";
import type { Egress } from "./egress/guard.ts";

export interface ToolContext {
  userId: string;
  db: Db;
  egress: Egress;
  /** The run's idempotency key; HTTP tools send it downstream as `Idempotency-Key`. */
  idempotencyKey: string;
  proposalId: string | null;
  /** Whose connection a connector call uses: the person's (`user`) or the assistant's own (`bot`). */
  identity: "user" | "bot";
  /**
   * The risk class the run was approved at (its proposal's, as the card showed it); absent for inline reads. A tool
   * whose class depends on facts that may change before the run (calendar invitees against the connected
   * account's domain) judges again and refuses what the approval did not cover.
   */
  approvedRiskClass?: RiskClass;
  /** Delivers a live message to the user's dashboards (notify); absent where no hub is reachable. */
  notifyDashboards?: (title: string, body: string, id: string) => Promise<void>;
  now(): number;
}

export type ToolOutcome =
  | { status: "executed"; result: unknown; verification: Verification }
  | {
      status: "failed" | "partial";
      failure: { class: FailureClass; message: string; remediation?: string };
      result?: unknown;
      verification: Verification;
    };

/** What a proposal's risk and card may depend on beyond its args: who it acts as, for whom. */
export interface ProposalContext {
  userId: string;
  identity: "user" | "bot";
}

export interface ConveyorTool<A = unknown> {
  name: string;
  description: string;
  schema: z.ZodType<A>;
  riskClass(args: A): RiskClass;
  /** Connector tools: the provider whose connection (of the call's identity) the run uses. */
  connection?: "google" | "github";
  /** Leaves Airlock for a third party (needs approval for WRITE/EXFILTRATION). */
  external: boolean;
  /**
   * Safe to send again after a crash mid-dispatch (a read, or a downstream known to deduplicate by key).
   * False: a possible send ends PARTIAL, never repeated automatically.
   */
  idempotentDownstream: boolean;
  /** The target a person may declare idempotent (http.request: the host); absent: none can be. */
  target?(args: A): string;
  /** For HIGH tools: a persisted grant may stand in for the person (companion.run). */
  grantCoversHigh: boolean;
  summary(args: A): ProposalSummary;
  /**
   * Connector tools: the risk class and card as the identity's connection makes them (an invitee outside
   * the account's domain is EXFILTRATION; the card names the account). Never below `riskClass(args)`'s
   * lower bound; absent: `riskClass` and `summary` are the whole answer.
   */
  contextual?(args: A, ctx: ProposalContext): Promise<{ riskClass: RiskClass; summary: ProposalSummary }>;
  /** The exact thing an "always" decision grants (host, command): shown on the card verbatim. */
  grantScope(args: A): string;
  /** Upper bound of one run, so the executor's lease outlives it. */
  timeoutMs(args: A): number;
  execute(args: A, ctx: ToolContext): Promise<ToolOutcome>;
}

export const failed = (
  cls: FailureClass,
  message: string,
  extra: { remediation?: string; result?: unknown } = {},
): ToolOutcome => ({
  status: "failed",
  failure: { class: cls, message, ...(extra.remediation ? { remediation: extra.remediation } : {}) },
  ...(extra.result === undefined ? {} : { result: extra.result }),
  verification: { outcome: "failed", detail: message },
});
