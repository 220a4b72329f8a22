// A prompt waiting behind the one being answered: a single line of what it is, and a button to answer it instead.
// It has no decision buttons, so no button on screen ever belongs to a card that is not shown in full.
import { visibleText } from "../../../src/policy/shown-call.ts";
import type { CapabilityPrompt } from "../../../src/protocol/prompts.ts";
import { askerName, firstAndLast } from "../dock-summary.ts";
import { capabilityLabel, riskLabel } from "../labels.ts";
import { Marked } from "./command-text.tsx";
import { callText } from "./prompt-calls.tsx";

interface Props {
  prompt: CapabilityPrompt;
  machineOf(deviceId: string): string | null;
  onOpen(): void;
}

export function QueuedCard({ prompt, machineOf, onOpen }: Props) {
  const calls = prompt.calls ?? [];
  const text = prompt.proposal
    ? prompt.proposal.summary.what
    : calls.length
      ? callText(calls[0] ?? { summary: "" })
      : (prompt.scopes[0]?.summary ?? "");
  const { first } = firstAndLast(visibleText(text));
  const headingId = `queued-${prompt.promptId}`;
  return (
    <article
      class={`card card-queued risk-${prompt.risk}`}
      aria-labelledby={headingId}
      data-prompt-id={prompt.promptId}
      data-queued=""
    >
      <p id={headingId} class="queued-title">
        <span class={`risk-badge risk-${prompt.risk}`}>{riskLabel[prompt.risk]}</span>{" "}
        {capabilityLabel[prompt.capability]} · <strong>{askerName(prompt, machineOf)}</strong>
        {prompt.callIds.length > 1 ? ` · ${prompt.callIds.length} calls` : ""}
      </p>
      <code class="dock-line">
        <Marked text={first} />
      </code>
      <button type="button" class="small-button queued-open" onClick={onOpen}>
        Answer this one
      </button>
    </article>
  );
}
