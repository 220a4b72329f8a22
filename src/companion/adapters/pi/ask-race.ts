// When policy says ask and Pi can show a dialog: Pi's own confirm and the phone prompt race, and the
// first answer wins. The loser is dismissed (local dialog) or left to time out (phone; see docs/agents.md).
import type { AgentToolCall, CompanionDecision } from "../../client.ts";

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
  return winner;
}
