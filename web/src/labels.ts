// Words the dashboard shows for capabilities, risks, decisions and resolutions (one place, so every view agrees).
import type { PromptDecision, Resolution } from "../../src/protocol/capability.ts";
import type { CapabilityPrompt } from "../../src/protocol/prompts.ts";

type Capability = CapabilityPrompt["capability"];
type Risk = CapabilityPrompt["risk"];

export const capabilityLabel: Record<Capability, string> = {
  read: "Read files",
  write: "Write files",
  exec: "Run commands",
  http: "Network access",
  session: "Session data",
  ui: "Ask you something",
  tool: "Use a tool",
};

export const riskLabel: Record<Risk, string> = { low: "LOW", medium: "MEDIUM", high: "HIGH" };

export const decisionLabel: Record<PromptDecision, string> = {
  allow_once: "Allow once",
  allow_session: "Allow for session",
  allow_always: "Allow always",
  deny_once: "Deny",
  deny_always: "Deny always",
};

export const resolutionLabel: Record<Resolution, string> = {
  allow_once: "Allowed once",
  allow_session: "Allowed for session",
  allow_always: "Always allowed",
  deny_once: "Denied",
  deny_always: "Always denied",
  deny_timeout: "Expired: no answer in time",
  abandoned: "Withdrawn: the agent stopped waiting",
};

/** A long text cut to `max` characters with an ellipsis (the full text stays one tap away). */
export function shortText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The order the five decisions are laid out in: the least-privileged allow first (it gets the focus). */
export const decisionOrder: readonly PromptDecision[] = [
  "allow_once",
  "allow_session",
  "allow_always",
  "deny_once",
  "deny_always",
];

export function isAllow(decision: PromptDecision | Resolution): boolean {
  return decision.startsWith("allow_");
}

/** "Allow once" for one call, "Allow once (all 10)" for a batch, so the count is on the button itself. */
export function decisionButtonLabel(decision: PromptDecision, callCount: number): string {
  return callCount > 1 && isAllow(decision)
    ? `${decisionLabel[decision]} (all ${callCount})`
    : decisionLabel[decision];
}

/** "3 pending calls" — the batch size a prompt stands for. */
export function batchLabel(callCount: number): string {
  return `${callCount} pending call${callCount === 1 ? "" : "s"}`;
}

/** The scope summaries a card shows before Details: up to three, then "+N more". */
export function scopePreview(prompt: Pick<CapabilityPrompt, "scopes" | "moreScopes">): {
  shown: string[];
  more: number;
} {
  const shown = prompt.scopes.slice(0, 3).map((s) => s.summary);
  return { shown, more: prompt.moreScopes + Math.max(0, prompt.scopes.length - 3) };
}

/**
 * "Confirm: allow Run commands for all 3 calls?" — the plain action of the high-risk confirm step. The command
 * itself is not squeezed into the question (a cut there hid a `| sh` at the end): the dock below it shows the
 * command's first and last line.
 */
export function confirmQuestion(prompt: Pick<CapabilityPrompt, "capability" | "callIds">): string {
  const count = prompt.callIds.length;
  return `Confirm: allow ${capabilityLabel[prompt.capability]}${count > 1 ? ` for all ${count} calls` : ""}?`;
}

/** "0:23" for a countdown; never negative. */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}
