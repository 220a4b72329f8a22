// The recent resolved prompts: what was asked, how it ended (allow_once, deny_timeout …) and who decided.
import type { ResolvedPrompt } from "../../../src/protocol/prompts.ts";
import { capabilityLabel, isAllow, resolutionLabel, scopePreview } from "../labels.ts";

function decidedBy(prompt: ResolvedPrompt, myDeviceId: string | null): string {
  if (prompt.resolution === "deny_timeout") return "nobody answered";
  if (prompt.decidedBy.deviceId && prompt.decidedBy.deviceId === myDeviceId) return "this device";
  return prompt.decidedBy.actor;
}

export function ResolvedList({
  prompts,
  myDeviceId,
}: {
  prompts: ResolvedPrompt[];
  myDeviceId: string | null;
}) {
  if (!prompts.length) return <p class="muted empty">Nothing resolved yet.</p>;
  return (
    <ol class="resolved">
      {prompts.map((prompt) => {
        const { shown, more } = scopePreview(prompt);
        return (
          <li key={prompt.promptId} class="resolved-item" data-prompt-id={prompt.promptId}>
            <div class="resolved-top">
              <span class={`outcome ${isAllow(prompt.resolution) ? "allowed" : "denied"}`}>
                {resolutionLabel[prompt.resolution]}
              </span>
              <time class="muted" dateTime={prompt.resolvedAt}>
                {new Date(prompt.resolvedAt).toLocaleTimeString()}
              </time>
            </div>
            <div>
              {capabilityLabel[prompt.capability]} · <strong>{prompt.agent.name}</strong>
            </div>
            <div class="muted small">
              <code>{shown.join(", ")}</code>
              {more ? ` +${more} more` : ""} · {prompt.callIds.length} call
              {prompt.callIds.length === 1 ? "" : "s"} · by {decidedBy(prompt, myDeviceId)}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
