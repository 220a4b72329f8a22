// What a push notification says about a prompt: the agent, the tool and the scope, shortened and redacted again
// (never a secret part: tokens, query strings, env values), and how many prompts wait in all.
import { redactText } from "../../policy/redact.ts";
import type { PushAnswerDecision } from "../../protocol/dashboard.ts";
import type { CapabilityPrompt } from "../../protocol/prompts.ts";

const SCOPE_CHARS = 80;

export interface PushPayload {
  title: string;
  body: string;
  /** Set for a prompt: tapping the notification opens its card. */
  promptId?: string;
  pending?: number;
  tag: string;
  /** Lock-screen buttons (low and medium risk only), answered with `answerToken` (answer-token.ts). */
  actions?: PushAnswerDecision[];
  answerToken?: string;
}

/**
 * Whether a prompt may be answered from the lock screen: not high risk (that needs the card, the whole command
 * and the step-up) and not one that needs a confirmation.
 */
export function lockScreenAnswerable(prompt: CapabilityPrompt): boolean {
  return prompt.risk !== "high" && !prompt.requiresConfirmation;
}

/** The prompt's notification with its lock-screen buttons and the token that answers it. */
export function withAnswer(payload: PushPayload, answerToken: string): PushPayload {
  return { ...payload, actions: ["allow_once", "deny_once"], answerToken };
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** A `notify` notification (the conveyor's tool): its own title and body, shortened and redacted again. */
export function messagePayload(title: string, body: string, id: string): PushPayload {
  return {
    title: shorten(redactText(title), 120),
    body: shorten(redactText(body), 240),
    // Each notification keeps its own slot; prompts keep theirs.
    tag: `airlock-notification-${id.slice(0, 40)}`,
  };
}

export function promptPayload(prompt: CapabilityPrompt, pending: number): PushPayload {
  const calls = prompt.callIds.length;
  const scope = prompt.scopes[0]?.summary ?? "";
  const more = calls > 1 ? ` (+${calls - 1} more)` : "";
  const agent = shorten(redactText(prompt.agent.name), 60);
  const tool = shorten(redactText(prompt.method), 40);
  const waiting = pending > 1 ? ` · ${pending} waiting` : "";
  return {
    title: `${agent} asks: ${tool}`,
    body: `${prompt.risk.toUpperCase()} risk · ${shorten(redactText(scope), SCOPE_CHARS)}${more}${waiting}`,
    promptId: prompt.promptId,
    pending,
    // One notification slot: a newer prompt replaces the older notification instead of stacking.
    tag: "airlock-prompt",
  };
}
