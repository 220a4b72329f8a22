// When policy says ask and Pi can show a dialog: Pi's own confirm and the phone prompt race, and the
// first answer wins. A losing local dialog is dismissed; a losing phone prompt is resolved with the local answer.
import type { AgentToolCall, CompanionDecision } from "../../control/client.ts";

export interface LocalConfirm {
  confirm(
    title: string,
    message: string,
    opts?: { signal?: AbortSignal; timeout?: number },
  ): Promise<boolean>;
}

export interface AskRaceDeps {
  ui: LocalConfirm;
  /** Asks the person through the companion (phone); resolves with their answer or the prompt's timeout. */
  askPhone: (call: AgentToolCall) => Promise<CompanionDecision>;
  /** How long the local dialog stays open before it counts as a deny. */
  timeoutMs: number;
  /** Tells the edge the local answer so the phone prompt closes (best effort, bounded by RELAY_WAIT_MS). */
  relayLocal?: (call: AgentToolCall, allow: boolean) => Promise<unknown>;
}

/**
 * The local answer is relayed before the call proceeds, so the phone stops asking and the audit holds the
 * answer even if the agent exits right after; a slow edge delays the call by at most this much.
 */
const RELAY_WAIT_MS = 2_000;

async function bounded(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([work.catch(() => undefined), cap]);
  } finally {
    clearTimeout(timer);
  }
}

/** Answers that mean "nobody could be asked", not "the person said no": they must not beat the local dialog. */
function isNoAnswer(decision: CompanionDecision): boolean {
  return decision.source === "unavailable" || decision.source === "error";
}

export function describeCall(call: AgentToolCall): string {
  const input = call.input;
  const detail =
    typeof input.command === "string"
      ? input.command
      : typeof input.path === "string"
        ? input.path
        : typeof input.url === "string"
          ? input.url
          : JSON.stringify(input);
  return `${call.tool}: ${detail.length > 400 ? `${detail.slice(0, 400)}…` : detail}`;
}

export async function raceLocalAndPhone(
  call: AgentToolCall,
  ask: CompanionDecision,
  deps: AskRaceDeps,
): Promise<CompanionDecision & { answeredBy: "local" | "phone" }> {
  const dismiss = new AbortController();
  let settled = false;
  const local = deps.ui
    .confirm("Airlock: allow this tool call?", `${describeCall(call)}\n\n${ask.reason}`, {
      signal: dismiss.signal,
      timeout: deps.timeoutMs,
    })
    .then((yes): CompanionDecision & { answeredBy: "local" } => ({
      decision: yes ? "allow" : "deny",
      reason: yes ? "Allowed in Pi by the user" : "Denied in Pi by the user (or the dialog timed out)",
      source: "user",
      ...(ask.rule ? { rule: ask.rule } : {}),
      answeredBy: "local",
    }));
  const phone = deps.askPhone(call).then(
    (answer) =>
      // A phone path that cannot ask anyone stays silent so the local dialog decides alone.
      new Promise<CompanionDecision & { answeredBy: "phone" }>((resolve) => {
        if (!isNoAnswer(answer) && !settled) resolve({ ...answer, answeredBy: "phone" });
      }),
  );
  const winner = await Promise.race([local, phone]);
  settled = true;
  if (winner.answeredBy === "phone") dismiss.abort();
  else if (deps.relayLocal) await bounded(deps.relayLocal(call, winner.decision === "allow"), RELAY_WAIT_MS);
  return winner;
}
