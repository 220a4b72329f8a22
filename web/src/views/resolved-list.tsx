// The recent resolved prompts: what was asked, how it ended and who decided (a device's name, never a raw id).
// What was asked is untrusted text, made visible the same way as on a card (no bidi reordering, no controls).
import { visibleText } from "../../../src/policy/shown-call.ts";
import type { ProposalView } from "../../../src/protocol/conveyor.ts";
import type { ResolvedPrompt } from "../../../src/protocol/prompts.ts";
import { askerName } from "../dock-summary.ts";
import { capabilityLabel, isAllow, resolutionLabel, scopePreview, shortText } from "../labels.ts";
import { ProposalOutcome } from "./proposal-outcome.tsx";

export function ResolvedList({
  prompts,
  describeDecider,
  proposalOf,
  machineOf,
}: {
  prompts: ResolvedPrompt[];
  describeDecider(prompt: ResolvedPrompt): string;
  proposalOf(proposalId: string): ProposalView | undefined;
  machineOf(deviceId: string): string | null;
}) {
  if (!prompts.length) return <p class="muted empty">Nothing resolved yet.</p>;
  return (
    <ol class="resolved">
      {prompts.map((prompt) => {
        const { shown, more } = scopePreview(prompt);
        const calls = prompt.callIds.length;
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
              {capabilityLabel[prompt.capability]} · <strong>{askerName(prompt, machineOf)}</strong>
            </div>
            <div class="muted small">
              <code>{shown.map((s) => shortText(visibleText(s), 80)).join(", ")}</code>
              {more ? ` +${more} more` : ""} · {calls} call{calls === 1 ? "" : "s"}
              {prompt.resolution === "deny_timeout" ? "" : ` · ${describeDecider(prompt)}`}
            </div>
            {prompt.proposal && isAllow(prompt.resolution) ? (
              <ProposalOutcome id={prompt.proposal.id} live={proposalOf(prompt.proposal.id)} />
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
