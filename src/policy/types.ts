// The public vocabulary of the policy engine: what a tool call is, what a decision records.

export type Capability = "read" | "write" | "exec" | "http" | "session" | "ui" | "tool";
export type Risk = "low" | "medium" | "high";
export type Action = "allow" | "deny" | "ask" | "hidden";
export type LayerName = "agent" | "user" | "project" | "account" | "emergency" | "default";
export type SourceLayer = "agent" | "user" | "project" | "account";

/**
 * Canonical tool names are Pi's: read, write, edit, bash, grep, find, ls, plus webfetch (http);
 * anything else (e.g. mcp__github__create_issue, deploy.prod) is capability "tool". Claude Code's
 * `file_path` is accepted as an alias of `path`.
 */
export interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
  cwd: string;
  agent?: string;
  /**
   * The user's home directory, for `~` in commands and paths. When absent it is inferred from a
   * cwd under /home/<user>, /Users/<user> or /root; otherwise `~` paths are unknown (never allowed).
   */
  home?: string;
  /**
   * The pins of the commands in the call that run project code (src/policy/causal-content.ts), from the
   * companion, which reads the files: an exact grant of such a command covers it only with the same pin.
   */
  causal?: readonly CausalPin[] | undefined;
  /**
   * The session's project directory when the agent reports it apart from `cwd` (Claude Code's
   * CLAUDE_PROJECT_DIR, after a `cd` its shell kept): the workspace and its git repository are this one's,
   * and a cwd outside it is not understood. Absent: the cwd is the workspace.
   */
  workspace?: string;
}

/** The content a command that runs project code is pinned to: in `dir`, for the runner `key`. */
export interface CausalPin {
  dir: string;
  key: string;
  /** sha256 of the excerpts that decide what it runs. */
  pin: string;
}

export interface EmergencyControls {
  readOnly: boolean;
  disableHighImpact: boolean;
  blockedTools: string[];
}

export interface PolicySource {
  layer: SourceLayer;
  path: string;
  text: string;
  trusted?: boolean;
}

export interface Scope {
  kind: "path" | "host" | "command" | "operation" | "tool";
  /** Redacted, relative to cwd where possible. */
  summary: string;
  /** Prompt scope group: top-level dir for read/write, host for http, first argv word for exec. */
  group: string;
}

/** The capability-prompt spec's policy modes (docs/policy.md, "Policy mode"). */
export type PolicyMode = "strict" | "prompt" | "permissive";

export interface DecisionRecord {
  action: Action;
  layer: LayerName;
  /** Full flattened rule name ("Parent > child"), or null when a default or control decided. */
  rule: string | null;
  capability: Capability;
  risk: Risk;
  reasons: string[];
  scope: Scope;
  scopeHash: string;
  message?: string;
  /** One line, e.g. "exec can run arbitrary commands". */
  justification: string;
  /** The tool the decision is about, so emergency controls can be applied to a bare record. */
  tool: string;
  /** A deny only because no one can answer (headless): with a person to ask, the call would be asked. */
  headless?: true;
}

export interface PolicyLoadError {
  path: string;
  rule?: string;
  line?: number;
  column?: number;
  message: string;
}

export interface DecideOptions {
  hasUI: boolean;
  emergency?: EmergencyControls;
  declaredHosts?: string[];
  /** The caller looks at the disk after deciding (judgeCall with a DiskCheck): rules see `walked` true. */
  diskChecked?: boolean;
  /**
   * With diskChecked: a glob a read-only command reads is judged by the files it matches on the disk, not
   * by every name it could match (`src/*` is no secret when src/ holds none). The caller then decides
   * again without it when the disk reports any fact (judge-call.ts).
   */
  globsOnDisk?: boolean;
}

const ACTION_RANK: Record<Action, number> = { allow: 0, ask: 1, deny: 2, hidden: 3 };

/** hidden > deny > ask > allow: the order every combination in the engine uses. */
export function stricter(a: Action, b: Action): Action {
  return ACTION_RANK[b] > ACTION_RANK[a] ? b : a;
}

export function actionRank(a: Action): number {
  return ACTION_RANK[a];
}

/** high > medium > low: how two records' risks compare wherever the stricter one is kept. */
export const RISK_RANK: Readonly<Record<Risk, number>> = { low: 0, medium: 1, high: 2 };
