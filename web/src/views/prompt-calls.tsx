// Every call a batch stands for, each with its working directory and the agent's own description: a person
// sees all of them before one answer settles the batch.
import type { CapabilityPrompt } from "../../../src/protocol/prompts.ts";
import { AgentWords } from "./agent-words.tsx";
import { CommandText } from "./command-text.tsx";

/** The text a card shows for a call: the hub's full text, or its summary when the two are the same. */
export function callText(call: { summary: string; text?: string | undefined }): string {
  return call.text ? call.text : call.summary;
}

interface Props {
  prompt: CapabilityPrompt;
  /** Called with a call's id once its whole command has been on screen. */
  onSeen?: (callId: string) => void;
}

export function PromptCalls({ prompt, onSeen }: Props) {
  // Hubs that predate per-call lists send only the representative scopes.
  const calls =
    prompt.calls ??
    prompt.scopes.map((scope, i) => ({
      callId: `${i}`,
      summary: scope.summary,
      cwd: null,
      description: null,
    }));
  const more = prompt.calls ? (prompt.moreCalls ?? 0) : prompt.moreScopes;
  return (
    <ol class={`calls${calls.length > 3 ? " calls-many" : ""}`} aria-label={`${calls.length + more} calls`}>
      {calls.map((call) => (
        <li key={call.callId} class="call">
          {call.description ? <AgentWords text={call.description} /> : null}
          <CommandText
            text={callText(call)}
            cwd={call.cwd}
            {...(onSeen ? { onSeen: () => onSeen(call.callId) } : {})}
          />
          {"chars" in call && call.text !== undefined && (call.chars ?? 0) > call.text.length ? (
            <p class="call-clipped small" role="note">
              {call.text
                ? `Only the first ${call.text.length.toLocaleString("en")} of ${(call.chars ?? 0).toLocaleString("en")} characters are shown`
                : `This is a summary of ${(call.chars ?? 0).toLocaleString("en")} characters`}
              : deny unless you know the rest.
            </p>
          ) : null}
          {call.cwd ? (
            <div class="call-cwd muted small">
              in <CommandText text={call.cwd} marks={false} />
            </div>
          ) : null}
        </li>
      ))}
      {more > 0 ? (
        <li class="muted">+{more} more not listed: deny and ask the agent to split the batch.</li>
      ) : null}
    </ol>
  );
}
