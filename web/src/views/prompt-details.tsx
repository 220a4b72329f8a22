// The Details panel of a prompt: every scope it carries, the method, and the ids that correlate it in the audit log.
import type { CapabilityPrompt } from "../../../src/protocol/prompts.ts";

export function PromptDetails({ prompt }: { prompt: CapabilityPrompt }) {
  return (
    <dl class="details">
      <dt>Scopes</dt>
      <dd>
        <ul>
          {prompt.scopes.map((scope, i) => (
            <li key={`${i}-${scope.summary}`}>
              <span class="muted">{scope.kind}</span> <code>{scope.summary}</code>
            </li>
          ))}
          {prompt.moreScopes > 0 ? (
            <li class="muted">{prompt.moreScopes} more not shown (redacted)</li>
          ) : null}
        </ul>
      </dd>
      <dt>Method</dt>
      <dd>
        <code>{prompt.method}</code>
      </dd>
      {prompt.agent.source ? (
        <>
          <dt>Agent source</dt>
          <dd>
            <code>{prompt.agent.source}</code>
          </dd>
        </>
      ) : null}
      <dt>Call ids</dt>
      <dd>
        <code>{prompt.callIds.join(", ")}</code>
      </dd>
      <dt>Session ids</dt>
      <dd>
        <code>{prompt.sessionIds.join(", ")}</code>
      </dd>
      <dt>Prompt id</dt>
      <dd>
        <code>{prompt.promptId}</code>
      </dd>
      <dt>Asked at</dt>
      <dd>{new Date(prompt.createdAt).toLocaleTimeString()}</dd>
    </dl>
  );
}
