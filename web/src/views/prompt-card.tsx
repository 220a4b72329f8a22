// One prompt: who asks, for what, how risky, every call of the batch with its cwd and the agent's description,
// time left, and the decisions (kept on screen below a bounded call list). A decided card stays in place: "Allowed
// always · Undo (5 s)" while a saving decision can still be taken back, "queued" while offline, then the outcome.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { cardMarkerOf } from "../../../src/policy/agent-marks.ts";
import { visibleText } from "../../../src/policy/shown-call.ts";
import type { PromptDecision } from "../../../src/protocol/capability.ts";
import type { CapabilityPrompt, ResolvedPrompt } from "../../../src/protocol/prompts.ts";
import { errorMessage } from "../api.ts";
import type { OutboxEntry } from "../decision-outbox.ts";
import { askerName, dockSummary } from "../dock-summary.ts";
import { grantChoicesOf } from "../grant-choices.ts";
import {
  batchLabel,
  capabilityLabel,
  decisionOrder,
  isAllow,
  resolutionLabel,
  riskLabel,
} from "../labels.ts";
import type { LayoutGuard } from "../layout-guard.ts";
import type { Hub } from "../use-hub.ts";
import { isLongText } from "./command-text.tsx";
import { Countdown, useRemaining } from "./countdown.tsx";
import { DecisionDock, type Phase } from "./decision-dock.tsx";
import { GrantChoice } from "./grant-choice.tsx";
import { callText, PromptCalls } from "./prompt-calls.tsx";
import { PromptDetails } from "./prompt-details.tsx";
import { ProposalBlock } from "./proposal-block.tsx";
import { ProposalOutcome } from "./proposal-outcome.tsx";

/** What a card takes from the hub is the hub's own (use-hub.ts), so the two never drift apart. */
interface Props extends Pick<Hub, "clockOffsetMs" | "proposalOf" | "decide" | "undo" | "confirm"> {
  prompt: CapabilityPrompt;
  settled: ResolvedPrompt | undefined;
  outbox: OutboxEntry | undefined;
  /** Only the first card takes the focus, and only if nothing else has it. */
  takeFocus: boolean;
  guard: LayoutGuard;
  describeDecider(prompt: ResolvedPrompt): string;
  /** A companion device's name ("build box"), or null when unknown. */
  machineOf(deviceId: string): string | null;
}

/** The ids of the texts a high-risk allow needs the person to have seen whole: long commands and arguments. */
function longTexts(prompt: CapabilityPrompt): string[] {
  if (prompt.proposal) return isLongText(prompt.proposal.args_text) ? ["proposal"] : [];
  return (prompt.calls ?? []).filter((c) => isLongText(callText(c))).map((c) => c.callId);
}

export function PromptCard(props: Props) {
  const { prompt, settled, outbox, clockOffsetMs, guard } = props;
  const [phase, setPhase] = useState<Phase>({ kind: "choose" });
  const [error, setError] = useState("");
  const [open, setOpen] = useState(false);
  const [denyNote, setDenyNote] = useState<string | null>(null);
  const [pattern, setPattern] = useState<string | null>(null);
  const [moved, setMoved] = useState(false);
  const [seen, setSeen] = useState<ReadonlySet<string>>(new Set());
  const markSeen = useCallback(
    (id: string) => setSeen((old) => (old.has(id) ? old : new Set([...old, id]))),
    [],
  );
  const choices = grantChoicesOf(prompt);
  const allowOnce = useRef<HTMLButtonElement>(null);
  const confirmYes = useRef<HTMLButtonElement>(null);
  const remaining = useRemaining(prompt.expiresAt, clockOffsetMs);
  const headingId = `prompt-${prompt.promptId}`;
  const options = decisionOrder.filter((d) => prompt.options.includes(d));
  const callCount = prompt.callIds.length;
  const expired = !settled && remaining <= 0;
  const unread = prompt.requiresConfirmation && longTexts(prompt).some((id) => !seen.has(id));

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
    if (isAllow(decision) && unread) {
      setError("Show the whole command first: tap “Show all” on the card.");
      document
        .querySelector(`article[data-prompt-id="${CSS.escape(prompt.promptId)}"] .command-gap`)
        ?.scrollIntoView({ block: "center" });
      return;
    }
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
        <strong>{askerName(prompt, props.machineOf)}</strong>{" "}
        <span class="muted">({visibleText(prompt.agent.id)})</span>
        {prompt.agent.version ? <span class="muted"> v{visibleText(prompt.agent.version)}</span> : null}
      </p>
      {decided ? null : (
        <>
          <JudgeMarker prompt={prompt} />
          <p class="justification">{visibleText(prompt.justification)}</p>
          {prompt.proposal ? (
            <ProposalBlock
              proposal={prompt.proposal}
              machineOf={props.machineOf}
              onSeen={() => markSeen("proposal")}
            />
          ) : (
            <PromptCalls prompt={prompt} onSeen={markSeen} />
          )}
          {choices && !state ? (
            <GrantChoice
              promptId={prompt.promptId}
              choices={choices}
              pattern={pattern}
              onPattern={setPattern}
            />
          ) : null}
          {choices?.why && !state ? (
            <p class="muted small grant-why" data-grant-why="">
              {choices.why}
              {choices.rule ? <code class="grant-rule">{choices.rule}</code> : null}
            </p>
          ) : null}
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
      ) : (
        <DecisionDock
          prompt={prompt}
          summary={dockSummary(prompt, props.machineOf)}
          phase={phase}
          options={options}
          expired={expired}
          unread={unread}
          denyNote={denyNote}
          onDenyNote={setDenyNote}
          tap={tap}
          choose={choose}
          confirm={(decision) => void confirmed(decision)}
          cancelConfirm={() => setPhase({ kind: "choose" })}
          allowOnceRef={allowOnce}
          confirmYesRef={confirmYes}
          note={error}
          moved={moved}
        />
      )}
      {settled?.proposal && isAllow(settled.resolution) ? (
        <ProposalOutcome id={settled.proposal.id} live={props.proposalOf(settled.proposal.id)} />
      ) : null}
      {moved && state ? (
        <p class="card-status tap-hint" role="status">
          The list just moved: tap again.
        </p>
      ) : null}
      {outbox?.error && (outbox.phase === "failed" || outbox.phase === "sent") ? (
        <p class="card-status error" role="alert">
          {outbox.error}
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
