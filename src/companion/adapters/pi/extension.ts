// The Airlock extension for the Pi coding agent: every tool call gated by the companion, prompts in Pi's
// own UI and on the phone at once, the policy's boundary note in the system prompt, prompts forwarded
// for warming (once, by precognition.ts), and pi.hitl's per-session `/permissions on|off`. Load it with `pi -e <airlock>/dist/companion/adapters/pi/extension.js`.
import { randomUUID } from "node:crypto";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { boundaryNote } from "../../../policy/index.ts";
import { promptTimeoutMs } from "../../cli/config.ts";
import { type AgentToolCall, endSession, requestDecision } from "../../control/client.ts";
import { keepControlConnection } from "../../control/connection.ts";
import { warmUpClient } from "../../control/warm-up.ts";
import { formatLoadErrors, loadLocalPolicy } from "../../local-policy/load.ts";
import { raceLocalAndPhone } from "./ask-race.ts";
import { relayLocalAnswer } from "./local-answer.ts";
import { registerPermissionsToggle } from "./permissions-toggle.ts";
import { registerPrecognition } from "./precognition.ts";

const AGENT = { id: "pi", name: "Pi coding agent", source: "pi-extension" } as const;
const SECTION = "airlock_boundaries";
/** Quitting Pi waits at most this long for the companion to drop the session's grants. */
const SHUTDOWN_WAIT_MS = 1_500;

function sessionIdOf(ctx: ExtensionContext, fallback: string): string {
  try {
    return ctx.sessionManager.getSessionId() || fallback;
  } catch {
    return fallback;
  }
}

function asRecord(input: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input));
}

export default function airlock(pi: ExtensionAPI): void {
  // Used only when Pi has no session id to give (it always should).
  const fallbackSession = `pi-${randomUUID()}`;
  // Pi lives for the session: one daemon connection serves every call instead of a connect per request.
  keepControlConnection();
  const serving = registerPrecognition(pi);
  const permissions = registerPermissionsToggle(pi);

  pi.on("session_start", (_event, ctx) => {
    // With no call made yet: the first tool call should not pay schema compiles, a connect or a policy load.
    void warmUpClient(ctx.cwd);
  });

  pi.on("before_agent_start", (event, ctx) => {
    const state = loadLocalPolicy(ctx.cwd);
    // Ungated (`/permissions off`): the local rules do not apply, so describing them would mislead the model.
    const note = !state.ok
      ? `Airlock's policy does not load (${formatLoadErrors(state.errors)}), so every tool call will be refused until it is fixed.`
      : permissions.ungated() && state.policy.allowUngated
        ? "Permissions are off for this session: the local policy does not gate calls, but the account policy and emergency controls can still refuse one."
        : boundaryNote(state.policy);
    if (note !== "") event.systemPromptOptions.sections[SECTION] = `Airlock checks every tool call. ${note}`;
    return undefined;
  });

  pi.on("session_shutdown", async (event, ctx) => {
    // A reload keeps the session; anything else ends it, and its allow-for-session grants with it.
    if (event.reason === "reload") return;
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
    });
    await Promise.race([endSession(sessionIdOf(ctx, fallbackSession)).catch(() => false), cap]);
    clearTimeout(timer);
  });

  pi.on("tool_call", async (event, ctx) => {
    const sessionId = sessionIdOf(ctx, fallbackSession);
    const call: AgentToolCall = {
      // Namespaced by session: providers are free to reuse ids like "call_0", and the edge answers a
      // repeated call id with the earlier decision.
      callId: `pi-${sessionId}-${event.toolCallId}`.slice(0, 200),
      sessionId,
      agent: { ...AGENT },
      tool: event.toolName,
      input: asRecord(event.input),
      cwd: ctx.cwd,
      hasUI: ctx.hasUI,
      ...(permissions.ungated() ? { ungated: true } : {}),
    };
    // With a dialog available, an `ask` comes back to be raced against the phone; without one the
    // companion asks the phone itself (and denies when nobody can be asked).
    // One request decides and serves: a future served with an allow waits for this call's execute (batch-snapshots.ts).
    const serve = serving?.request(event.toolName, call.input);
    const first = await requestDecision(call, {
      askMode: ctx.hasUI ? "return" : "approver",
      ...(serve && serving
        ? { serve, onServed: (future) => serving.snapshots.hold(event.toolCallId, future) }
        : {}),
    });
    if (first.decision === "allow") return undefined;
    if (first.decision === "deny") return { block: true, reason: first.reason };
    const answer = await raceLocalAndPhone(call, first, {
      ui: ctx.ui,
      askPhone: (c) => requestDecision(c, { askMode: "approver" }),
      timeoutMs: promptTimeoutMs(),
      relayLocal: (c, allow) => relayLocalAnswer(c.callId, allow),
    });
    return answer.decision === "allow" ? undefined : { block: true, reason: answer.reason };
  });
}
