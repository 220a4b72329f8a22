// One prompt: who asks, for what, how risky, every call of the batch with its cwd and the agent's description,
// time left, and the decisions (kept on screen below a bounded call list). A decided card stays in place: "Allowed
// always · Undo (5 s)" while a saving decision can still be taken back, "queued" while offline, then the outcome.
import { useEffect, useRef, useState } from "preact/hooks";
import { cardMarkerOf } from "../../../src/policy/agent-marks.ts";
import type { PromptDecision } from "../../../src/protocol/capability.ts";
import type { CapabilityPrompt, ResolvedPrompt } from "../../../src/protocol/prompts.ts";
import { errorMessage } from "../api.ts";
import type { OutboxEntry } from "../decision-outbox.ts";
import { grantChoicesOf } from "../grant-choices.ts";
import {
  batchLabel,
  capabilityLabel,
  confirmQuestion,
  decisionButtonLabel,
  decisionLabel,
  decisionOrder,
  isAllow,
  resolutionLabel,
  riskLabel,
} from "../labels.ts";
import type { LayoutGuard } from "../layout-guard.ts";
import { Countdown, useRemaining } from "./countdown.tsx";
import { GrantChoice } from "./grant-choice.tsx";
import { PromptCalls } from "./prompt-calls.tsx";
import { PromptDetails } from "./prompt-details.tsx";
import { ProposalBlock } from "./proposal-block.tsx";

interface Props {
  prompt: CapabilityPrompt;
  settled: ResolvedPrompt | undefined;
  outbox: OutboxEntry | undefined;
  /** Only the first card takes the focus, and only if nothing else has it. */
  takeFocus: boolean;
  clockOffsetMs: number;
  guard: LayoutGuard;
  describeDecider(prompt: ResolvedPrompt): string;
  decide(
    prompt: CapabilityPrompt,
    decision: PromptDecision,
    extra?: { token?: string; message?: string },
  ): void;
  undo(promptId: string): void;
  confirm(prompt: CapabilityPrompt): Promise<string>;
}

type Phase = { kind: "choose" } | { kind: "confirm"; decision: PromptDecision } | { kind: "confirming" };

export function PromptCard(props: Props) {
  const { prompt, settled, outbox, clockOffsetMs, guard } = props;
  const [phase, setPhase] = useState<Phase>({ kind: "choose" });
  const [error, setError] = useState("");
  const [open, setOpen] = useState(false);
  const [denyNote, setDenyNote] = useState<string | null>(null);
  const [pattern, setPattern] = useState<string | null>(null);
  const [moved, setMoved] = useState(false);
  const choices = grantChoicesOf(prompt);
  const allowOnce = useRef<HTMLButtonElement>(null);
  const confirmYes = useRef<HTMLButtonElement>(null);
  const remaining = useRemaining(prompt.expiresAt, clockOffsetMs);
  const headingId = `prompt-${prompt.promptId}`;
  const options = decisionOrder.filter((d) => prompt.options.includes(d));
  const callCount = prompt.callIds.length;
  const expired = !settled && remaining <= 0;

  useEffect(() => {
    const active = document.activeElement;
    if (props.takeFocus && (!active || active === document.body)) allowOnce.current?.focus();
  }, [props.takeFocus]);
  useEffect(() => {
    if (phase.kind === "confirm") confirmYes.current?.focus();
  }, [phase.kind]);

  /** Every decision tap goes through here: taps right after the layout moved are dropped. */
  const tap = (action: () => void) => (event: Event) => {
    if (!guard.steady()) {
      event.preventDefault();
      // Say so, or the person would think the tap counted.
      setMoved(true);
      setTimeout(() => setMoved(false), 1500);
      return;
    }
    setMoved(false);
    action();
  };

  const choose = (decision: PromptDecision) => {
    setError("");
    if (isAllow(decision) && prompt.requiresConfirmation) setPhase({ kind: "confirm", decision });
    else
      props.decide(prompt, decision, {
        ...(denyNote?.trim() ? { message: denyNote.trim() } : {}),
        ...(pattern && savesGrant(decision) ? { pattern } : {}),
      });
  };

  const confirmed = async (decision: PromptDecision) => {
    setPhase({ kind: "confirming" });
    try {
      const token = await props.confirm(prompt);
      props.decide(prompt, decision, { token, ...(pattern && savesGrant(decision) ? { pattern } : {}) });
      setPhase({ kind: "choose" });
    } catch (failure) {
      setError(errorMessage(failure));
      setPhase({ kind: "choose" });
    }
  };

  const state = cardState(settled, outbox, expired, props.describeDecider);
  const decided = Boolean(settled || (outbox && outbox.phase !== "failed"));
  return (
    <article
      class={`card risk-${prompt.risk}${decided ? " card-decided" : ""}${expired ? " card-expired" : ""}`}
      aria-labelledby={headingId}
      data-prompt-id={prompt.promptId}
    >
      <header class="card-head">
        <span class={`risk-badge risk-${prompt.risk}`}>{riskLabel[prompt.risk]} RISK</span>
        {settled ? null : <Countdown remaining={remaining} timeoutMs={prompt.timeoutMs} />}
      </header>
      <h2 id={headingId} class="card-title">
        {capabilityLabel[prompt.capability]} <code class="cap-key">{prompt.method}</code>
      </h2>
      <p class="agent">
        <strong>{prompt.agent.name}</strong> <span class="muted">({prompt.agent.id})</span>
        {prompt.agent.version ? <span class="muted"> v{prompt.agent.version}</span> : null}
      </p>
      {decided ? null : (
        <>
          <JudgeMarker prompt={prompt} />
          <p class="justification">{prompt.justification}</p>
          {prompt.proposal ? <ProposalBlock proposal={prompt.proposal} /> : <PromptCalls prompt={prompt} />}
          <p class="batch">{batchLabel(callCount)}</p>
          <button type="button" class="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? "Hide details" : "Details"}
          </button>
          {open ? <PromptDetails prompt={prompt} /> : null}
        </>
      )}

      {state ? (
        <div class={`card-outcome ${state.tone}`} role="status">
          <span>{state.text}</span>
          {outbox && (outbox.phase === "held" || outbox.phase === "queued") && !settled ? (
            <button type="button" class="small-button" onClick={tap(() => props.undo(prompt.promptId))}>
              {outbox.phase === "held"
                ? `Undo (${Math.max(1, Math.ceil((outbox.sendAt - Date.now()) / 1000))} s)`
                : "Cancel"}
            </button>
          ) : null}
        </div>
      ) : phase.kind === "confirm" || phase.kind === "confirming" ? (
        <fieldset class="confirm decisions-dock">
          <legend class="sr-only">Confirm high-risk allow</legend>
          <p class="confirm-question">{confirmQuestion(prompt)}</p>
          <p class="muted small">High risk: this needs a second, deliberate tap.</p>
          <div class="decisions">
            <button
              type="button"
              class="decision allow"
              ref={confirmYes}
              disabled={phase.kind === "confirming"}
              onClick={tap(() => phase.kind === "confirm" && void confirmed(phase.decision))}
            >
              {phase.kind === "confirm"
                ? `Yes, ${decisionLabel[phase.decision].toLowerCase()}`
                : "Confirming…"}
            </button>
            <button type="button" class="decision neutral" onClick={() => setPhase({ kind: "choose" })}>
              Cancel
            </button>
          </div>
        </fieldset>
      ) : (
        <fieldset class="decision-group decisions-dock" disabled={expired}>
          <legend class="sr-only">Decision</legend>
          {choices ? (
            <GrantChoice
              promptId={prompt.promptId}
              choices={choices}
              pattern={pattern}
              onPattern={setPattern}
            />
          ) : null}
          {choices?.why ? (
            <p class="muted small grant-why" data-grant-why="">
              {choices.why}
              {choices.rule ? <code class="grant-rule">{choices.rule}</code> : null}
            </p>
          ) : null}
          {denyNote !== null ? (
            <label class="deny-note">
              <span class="small">Message for the agent (sent with a deny)</span>
              <input
                value={denyNote}
                maxLength={500}
                placeholder="e.g. use pnpm instead"
                onInput={(e) => setDenyNote(e.currentTarget.value)}
              />
            </label>
          ) : null}
          <div class="decisions">
            {options.map((decision) => (
              <button
                key={decision}
                type="button"
                class={`decision ${isAllow(decision) ? "allow" : "deny"}${decision === "allow_once" ? " primary" : ""}`}
                ref={decision === "allow_once" ? allowOnce : undefined}
                onClick={tap(() => choose(decision))}
              >
                {decisionButtonLabel(decision, callCount)}
              </button>
            ))}
          </div>
          {denyNote === null ? (
            <button type="button" class="link-button" onClick={() => setDenyNote("")}>
              Deny with a message…
            </button>
          ) : null}
        </fieldset>
      )}
      {moved ? (
        <p class="card-status tap-hint" role="status">
          The list just moved: tap again.
        </p>
      ) : null}
      {error || outbox?.phase === "failed" ? (
        <p class="card-status error" role="alert">
          {error || outbox?.error}
        </p>
      ) : null}
    </article>
  );
}

const savesGrant = (d: PromptDecision) =>
  d === "allow_session" || d === "allow_always" || d === "deny_always";

function cardState(
  settled: ResolvedPrompt | undefined,
  outbox: OutboxEntry | undefined,
  expired: boolean,
  describeDecider: (prompt: ResolvedPrompt) => string,
): { text: string; tone: "allowed" | "denied" | "neutral" } | null {
  if (settled) {
    const by = settled.resolution === "deny_timeout" ? "" : ` · ${describeDecider(settled)}`;
    return {
      text: `${resolutionLabel[settled.resolution]}${by}`,
      tone: isAllow(settled.resolution) ? "allowed" : "denied",
    };
  }
  if (outbox && outbox.phase !== "failed") {
    const tone = isAllow(outbox.decision) ? "allowed" : "denied";
    const what = resolutionLabel[outbox.decision];
    const text = {
      held: what,
      queued: `${what} · queued, sends when Airlock is back`,
      sending: `${what} · sending…`,
      sent: `${what} · sent`,
    }[outbox.phase];
    return { text, tone };
  }
  if (expired) return { text: "Expired: the agent was told no", tone: "neutral" };
  return null;
}

/** Who is asking, shown loudly: the agent's own permission check, or Airlock alone under mode: sole. */
function JudgeMarker({ prompt }: { prompt: CapabilityPrompt }) {
  const marker = cardMarkerOf(prompt.justification);
  if (marker === "sole")
    return (
      <p class="judge-marker judge-sole">SOLE JUDGE: {prompt.agent.name}'s own permission check is off</p>
    );
  if (marker === "agent_asks")
    return <p class="judge-marker judge-agent">{prompt.agent.name.toUpperCase()} ASKS</p>;
  return null;
}
