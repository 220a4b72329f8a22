// The default view: one prompt at a time in full with its decisions docked above the tab bar, the others waiting
// as one-line cards (settled cards linger in place), an announcement region for screen readers, the emergency
// banner, and the resolved list.
import { useEffect, useRef, useState } from "preact/hooks";
import { useDeviceNames } from "../devices-cache.ts";
import { useLayoutGuard } from "../layout-guard.ts";
import type { Hub } from "../use-hub.ts";
import { PolicySuggestions } from "./policy-suggestions.tsx";
import { PromptCard } from "./prompt-card.tsx";
import { QueuedCard } from "./queued-card.tsx";
import { ResolvedList } from "./resolved-list.tsx";

export function emergencyWords(hub: Pick<Hub, "emergency">): string[] {
  const { emergency } = hub;
  if (!emergency) return [];
  return [
    emergency.readOnly ? "read-only mode" : "",
    emergency.disableHighImpact ? "high-impact tools disabled" : "",
    emergency.blockedTools.length ? `${emergency.blockedTools.length} tool(s) blocked` : "",
  ].filter(Boolean);
}

export function ApprovalsView({ hub }: { hub: Hub }) {
  const list = useRef<HTMLDivElement>(null);
  const guard = useLayoutGuard(list);
  const devices = useDeviceNames(hub.deviceId);
  const switches = emergencyWords(hub);
  // A tapped notification opens /?prompt=<id>: that card is the one answered, and brought into view.
  const wanted = new URLSearchParams(location.search).get("prompt");
  const [chosen, setChosen] = useState<string | null>(null);
  const shown = hub.cards.some((p) => p.promptId === wanted);
  // Open, and not already answered on this page: the cards that could take the decisions.
  const answerable = hub.cards.filter((p) => {
    const entry = hub.outbox(p.promptId);
    return !hub.settledOf(p.promptId) && (!entry || entry.phase === "failed");
  });
  const pick = (id: string | null) => answerable.find((p) => p.promptId === id);
  const active = (pick(chosen) ?? pick(wanted) ?? answerable[0])?.promptId;
  useEffect(() => {
    if (wanted && shown)
      document.querySelector(`article[data-prompt-id="${CSS.escape(wanted)}"]`)?.scrollIntoView();
  }, [wanted, shown]);
  return (
    <main class="view">
      <div class="sr-only" aria-live="polite" role="status">
        {hub.announcement}
      </div>
      {switches.length ? (
        <p class="banner" role="note">
          Emergency: {switches.join(", ")}.
        </p>
      ) : null}
      <section aria-labelledby="pending-heading">
        <h1 id="pending-heading" class="section-title">
          Pending <span class="count">{hub.pending.length}</span>
        </h1>
        <div class="cards" ref={list}>
          {hub.cards.map((prompt) =>
            prompt.promptId !== active && answerable.includes(prompt) ? (
              <QueuedCard
                key={prompt.promptId}
                prompt={prompt}
                machineOf={devices.nameOf}
                onOpen={() => setChosen(prompt.promptId)}
              />
            ) : (
              <PromptCard
                key={prompt.promptId}
                prompt={prompt}
                settled={hub.settledOf(prompt.promptId)}
                outbox={hub.outbox(prompt.promptId)}
                takeFocus={prompt.promptId === active}
                clockOffsetMs={hub.clockOffsetMs}
                guard={guard}
                describeDecider={devices.decider}
                machineOf={devices.nameOf}
                proposalOf={hub.proposalOf}
                decide={hub.decide}
                undo={hub.undo}
                confirm={hub.confirm}
              />
            ),
          )}
        </div>
        {hub.cards.length ? null : (
          <p class="muted empty">
            {hub.link === "live"
              ? "No requests waiting. New ones appear here as agents ask."
              : "Waiting for the link to Airlock…"}
          </p>
        )}
      </section>
      <PolicySuggestions />
      <section aria-labelledby="resolved-heading">
        <h2 id="resolved-heading" class="section-title">
          Resolved
        </h2>
        <ResolvedList
          prompts={hub.resolved}
          describeDecider={devices.decider}
          proposalOf={hub.proposalOf}
          machineOf={devices.nameOf}
        />
      </section>
    </main>
  );
}
