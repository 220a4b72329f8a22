// Every call a batch stands for, each with its working directory and the agent's own description: a person
// sees all of them before one answer settles the batch.
import type { CapabilityPrompt } from "../../../src/protocol/prompts.ts";
import { CommandText } from "./command-text.tsx";

export function PromptCalls({ prompt }: { prompt: CapabilityPrompt }) {
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
          {call.description ? <p class="call-description">“{call.description}”</p> : null}
          <CommandText text={"text" in call && call.text ? call.text : call.summary} />
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
              in <CommandText text={call.cwd} />
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
