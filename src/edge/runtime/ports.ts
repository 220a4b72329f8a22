// What the turn kernel needs from the rest of the edge, as ports: D1, the conveyor (registry, executor,
// and the user's hub for proposals, emergency controls and dashboards), the planner, and a clock.
import type { EmergencyControls } from "../../protocol/capability.ts";
import type { CreateProposalRequest, ProposalSourceKind, ProposalView } from "../../protocol/conveyor.ts";
import type { ServerMessage } from "../../protocol/socket.ts";
import type { Executor } from "../conveyor/executor.ts";
import type { ToolRegistry } from "../conveyor/registry.ts";
import type { Db } from "../db/client.ts";
import type { Planner } from "./planner.ts";

export type ProposeOutcome =
  | { ok: true; view: ProposalView }
  | { ok: false; code: string; message: string; details?: unknown };

export interface ProposalSource {
  kind: ProposalSourceKind;
  ref: string;
  /** The audit actor (`job:<id>`, `chat:<thread>`). */
  actor: string;
  /** Only a person may approve (turnEffect in src/policy/turn-safety.ts says why). */
  personOnly?: string;
}

/** The user's UserHub as the runtime uses it. */
export interface RuntimeHub {
  propose(request: CreateProposalRequest, source: ProposalSource): Promise<ProposeOutcome>;
  emergency(): Promise<EmergencyControls>;
  /** Rejects a proposal still waiting for a person (a cancelled job's). */
  withdrawProposal(proposalId: string, actor: string): Promise<void>;
  /** To the user's open dashboards. */
  broadcast(message: ServerMessage): Promise<void>;
}

export interface KernelPorts {
  db: Db;
  registry: ToolRegistry;
  executor: Executor;
  /** Null when no model provider is configured (turns then fail with MODEL_NOT_CONFIGURED). */
  planner: Planner | null;
  plannerProblem: string;
  hub(userId: string): RuntimeHub;
  /** The Worker's secret values: masked wherever they appear in what the model is sent. */
  secrets: string[];
  now(): number;
  /** Tests: throw at a named point to prove a resumed turn repeats nothing. */
  fault?(point: "after_inline_call" | "after_proposal"): void;
}
