// The decisions of the one card being answered, docked above the tab bar: they say what they answer (who asks from
// where, the first and last line of what would run, why any part is marked), so a button is never seen without its
// content. On a high-risk card Deny stands beside Allow once at the same size, and an allow waits until the whole
// command has been shown. The confirm step repeats the command's start and end, never cut before its end.
import type { Ref } from "preact";
import { useEffect, useRef } from "preact/hooks";
import type { PromptDecision } from "../../../src/protocol/capability.ts";
import type { CapabilityPrompt } from "../../../src/protocol/prompts.ts";
import type { DockSummary } from "../dock-summary.ts";
import { confirmQuestion, decisionButtonLabel, decisionLabel, isAllow } from "../labels.ts";
import { Marked } from "./command-text.tsx";

export type Phase =
  | { kind: "choose" }
  | { kind: "confirm"; decision: PromptDecision }
  | { kind: "confirming" };

interface Props {
  prompt: CapabilityPrompt;
  summary: DockSummary;
  phase: Phase;
  options: PromptDecision[];
  expired: boolean;
  /** The person has not yet seen every long command in full (high risk only). */
  unread: boolean;
  denyNote: string | null;
  onDenyNote(note: string | null): void;
  tap(action: () => void): (event: Event) => void;
  choose(decision: PromptDecision): void;
  confirm(decision: PromptDecision): void;
  cancelConfirm(): void;
  allowOnceRef: Ref<HTMLButtonElement>;
  confirmYesRef: Ref<HTMLButtonElement>;
  /** An error about the last tap, shown here next to the buttons. */
  note: string;
  /** The last tap was dropped because the layout had just moved. */
  moved: boolean;
}

function DockContext({ summary }: { summary: DockSummary }) {
  return (
    <div class="dock-context">
      <p class="dock-who">{summary.who}</p>
      <code class="dock-line dock-first">
        <Marked text={summary.first} />
      </code>
      {summary.last ? (
        <code class="dock-line dock-last">
          <Marked text={summary.last} />
        </code>
      ) : null}
      {summary.reasons.length ? <p class="dock-danger">⚠ {summary.reasons.join(" · ")}</p> : null}
    </div>
  );
}

/** Keeps the page's bottom padding equal to the dock's height, so the dock never covers the end of its card. */
function useDockHeight(which: string): Ref<HTMLFieldSetElement> {
  const dock = useRef<HTMLFieldSetElement>(null);
  useEffect(() => {
    const element = dock.current;
    if (!element) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() => root.setProperty("--dock-h", `${element.offsetHeight}px`));
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.removeProperty("--dock-h");
    };
  }, [which]);
  return dock;
}

export function DecisionDock(props: Props) {
  const { prompt, summary, phase, options, tap } = props;
  const dock = useDockHeight(phase.kind === "choose" ? "choose" : "confirm");
  const callCount = prompt.callIds.length;
  const high = prompt.risk === "high";
  const note = (
    <>
      {props.moved ? (
        <p class="dock-note tap-hint" role="status">
          The list just moved: tap again.
        </p>
      ) : null}
      {props.note ? (
        <p class="dock-note error" role="alert">
          {props.note}
        </p>
      ) : null}
    </>
  );
  if (phase.kind === "confirm" || phase.kind === "confirming")
    return (
      <fieldset class="confirm decisions-dock" ref={dock}>
        <legend class="sr-only">Confirm high-risk allow</legend>
        <p class="confirm-question">{confirmQuestion(prompt)}</p>
        <DockContext summary={summary} />
        <p class="muted small">High risk: this needs a second, deliberate tap.</p>
        <div class="decisions">
          <button
            type="button"
            class="decision allow"
            ref={props.confirmYesRef}
            disabled={phase.kind === "confirming"}
            onClick={tap(() => phase.kind === "confirm" && props.confirm(phase.decision))}
          >
            {phase.kind === "confirm" ? `Yes, ${decisionLabel[phase.decision].toLowerCase()}` : "Confirming…"}
          </button>
          <button type="button" class="decision neutral" onClick={props.cancelConfirm}>
            Cancel
          </button>
        </div>
        {note}
      </fieldset>
    );
  const main = options.filter((d) => d === "allow_once" || d === "deny_once");
  const rest = options.filter((d) => d !== "allow_once" && d !== "deny_once");
  const button = (decision: PromptDecision, extra = "") => (
    <button
      key={decision}
      type="button"
      class={`decision ${isAllow(decision) ? "allow" : "deny"}${extra}`}
      ref={decision === "allow_once" ? props.allowOnceRef : undefined}
      aria-disabled={props.unread && isAllow(decision) ? "true" : undefined}
      onClick={tap(() => props.choose(decision))}
    >
      {decisionButtonLabel(decision, callCount)}
    </button>
  );
  return (
    <fieldset
      class={`decision-group decisions-dock${high ? " dock-high" : ""}`}
      disabled={props.expired}
      ref={dock}
    >
      <legend class="sr-only">Decision</legend>
      <DockContext summary={summary} />
      {props.denyNote !== null ? (
        <label class="deny-note">
          <span class="small">Message for the agent (sent with a deny)</span>
          <input
            value={props.denyNote}
            maxLength={500}
            placeholder="e.g. use pnpm instead"
            onInput={(e) => props.onDenyNote(e.currentTarget.value)}
          />
        </label>
      ) : null}
      {props.unread ? (
        <p class="dock-note" role="note">
          High risk: show the whole command (Show all) before allowing.
        </p>
      ) : null}
      <div class="decisions decisions-main">
        {main.map((d) => button(d, d === "allow_once" && !high ? " main primary" : " main"))}
      </div>
      {rest.length ? (
        <div class="decisions decisions-rest">{rest.map((d) => button(d, " minor"))}</div>
      ) : null}
      {props.denyNote === null ? (
        <button type="button" class="link-button" onClick={() => props.onDenyNote("")}>
          Deny with a message…
        </button>
      ) : null}
      {note}
    </fieldset>
  );
}
