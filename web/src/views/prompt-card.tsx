// One pending prompt: who asks, for what, how risky, how many calls, time left, details, and the five decisions
// (high-risk allows go through a deliberate confirm step that fetches a single-use token).
import { useEffect, useRef, useState } from "preact/hooks";
import type { PromptDecision } from "../../../src/protocol/capability.ts";
import type { CapabilityPrompt } from "../../../src/protocol/prompts.ts";
import { errorMessage } from "../api.ts";
import {
  batchLabel,
  capabilityLabel,
  confirmQuestion,
  decisionLabel,
  decisionOrder,
  isAllow,
  riskLabel,
  scopePreview,
} from "../labels.ts";
import { Countdown } from "./countdown.tsx";
import { PromptDetails } from "./prompt-details.tsx";

interface Props {
  prompt: CapabilityPrompt;
  /** Only the first card takes the focus, and only if nothing else has it. */
  takeFocus: boolean;
  clockOffsetMs: number;
  decide(prompt: CapabilityPrompt, decision: PromptDecision, confirmationToken?: string): Promise<void>;
  confirm(prompt: CapabilityPrompt): Promise<string>;
}

type Phase =
  | { kind: "choose" }
  | { kind: "confirm"; decision: PromptDecision }
  | { kind: "sending"; decision: PromptDecision }
  | { kind: "sent"; decision: PromptDecision };

export function PromptCard({ prompt, takeFocus, clockOffsetMs, decide, confirm }: Props) {
  const [phase, setPhase] = useState<Phase>({ kind: "choose" });
  const [error, setError] = useState("");
  const [open, setOpen] = useState(false);
  const allowOnce = useRef<HTMLButtonElement>(null);
  const confirmYes = useRef<HTMLButtonElement>(null);
  const headingId = `prompt-${prompt.promptId}`;
  const { shown, more } = scopePreview(prompt);
  const options = decisionOrder.filter((d) => prompt.options.includes(d));

  useEffect(() => {
    const active = document.activeElement;
    if (takeFocus && (!active || active === document.body)) allowOnce.current?.focus();
  }, [takeFocus]);
  useEffect(() => {
    if (phase.kind === "confirm") confirmYes.current?.focus();
  }, [phase.kind]);

  const send = async (decision: PromptDecision, withToken: boolean) => {
    setError("");
    setPhase({ kind: "sending", decision });
    try {
      const token = withToken ? await confirm(prompt) : undefined;
      await decide(prompt, decision, token);
      setPhase({ kind: "sent", decision });
    } catch (failure) {
      setError(errorMessage(failure));
      setPhase({ kind: "choose" });
    }
  };

  const choose = (decision: PromptDecision) => {
    if (isAllow(decision) && prompt.requiresConfirmation) setPhase({ kind: "confirm", decision });
    else void send(decision, false);
  };

  const busy = phase.kind === "sending" || phase.kind === "sent";
  return (
    <article class={`card risk-${prompt.risk}`} aria-labelledby={headingId} data-prompt-id={prompt.promptId}>
      <header class="card-head">
        <span class={`risk-badge risk-${prompt.risk}`}>{riskLabel[prompt.risk]} RISK</span>
        <Countdown expiresAt={prompt.expiresAt} timeoutMs={prompt.timeoutMs} clockOffsetMs={clockOffsetMs} />
      </header>
      <h2 id={headingId} class="card-title">
        {capabilityLabel[prompt.capability]} <code class="cap-key">{prompt.capability}</code>
      </h2>
      <p class="agent">
        <strong>{prompt.agent.name}</strong> <span class="muted">({prompt.agent.id})</span>
        {prompt.agent.version ? <span class="muted"> v{prompt.agent.version}</span> : null}
      </p>
      <p class="justification">{prompt.justification}</p>
      <ul class="scopes" aria-label="Scope">
        {shown.map((summary) => (
          <li key={summary}>
            <code>{summary}</code>
          </li>
        ))}
        {more > 0 ? <li class="muted">+{more} more</li> : null}
      </ul>
      <p class="batch">{batchLabel(prompt.callIds.length)}</p>

      <button type="button" class="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "Hide details" : "Details"}
      </button>
      {open ? <PromptDetails prompt={prompt} /> : null}

      {phase.kind === "confirm" ? (
        <fieldset class="confirm">
          <legend class="sr-only">Confirm high-risk allow</legend>
          <p class="confirm-question">{confirmQuestion(prompt)}</p>
          <p class="muted">High risk: this needs a second, deliberate tap.</p>
          <div class="decisions">
            <button
              type="button"
              class="decision allow"
              ref={confirmYes}
              onClick={() => void send(phase.decision, true)}
            >
              Yes, {decisionLabel[phase.decision].toLowerCase()}
            </button>
            <button type="button" class="decision neutral" onClick={() => setPhase({ kind: "choose" })}>
              Cancel
            </button>
          </div>
        </fieldset>
      ) : (
        <fieldset class="decision-group">
          <legend class="sr-only">Decision</legend>
          <div class="decisions">
            {options.map((decision) => (
              <button
                key={decision}
                type="button"
                class={`decision ${isAllow(decision) ? "allow" : "deny"}${decision === "allow_once" ? " primary" : ""}`}
                ref={decision === "allow_once" ? allowOnce : undefined}
                disabled={busy}
                onClick={() => choose(decision)}
              >
                {decisionLabel[decision]}
              </button>
            ))}
          </div>
        </fieldset>
      )}
      <p class={`card-status${error ? " error" : ""}`} role={error ? "alert" : undefined}>
        {error ||
          (phase.kind === "sending" ? `Sending: ${decisionLabel[phase.decision]}…` : "") ||
          (phase.kind === "sent" ? `${decisionLabel[phase.decision]}: sent.` : "")}
      </p>
    </article>
  );
}
