// The default view: pending prompts as cards (live), an announcement region for screen readers, the resolved list.
import type { Hub } from "../use-hub.ts";
import { PromptCard } from "./prompt-card.tsx";
import { ResolvedList } from "./resolved-list.tsx";

export function ApprovalsView({ hub }: { hub: Hub }) {
  const { emergency } = hub;
  const switches = emergency
    ? [
        emergency.readOnly ? "read-only mode" : "",
        emergency.disableHighImpact ? "high-impact tools disabled" : "",
        emergency.blockedTools.length ? `${emergency.blockedTools.length} tool(s) blocked` : "",
      ].filter(Boolean)
    : [];
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
        {hub.pending.length ? (
          hub.pending.map((prompt, index) => (
            <PromptCard
              key={prompt.promptId}
              prompt={prompt}
              takeFocus={index === 0}
              clockOffsetMs={hub.clockOffsetMs}
              decide={hub.decide}
              confirm={hub.confirm}
            />
          ))
        ) : (
          <p class="muted empty">No requests waiting. New ones appear here as agents ask.</p>
        )}
      </section>
      <section aria-labelledby="resolved-heading">
        <h2 id="resolved-heading" class="section-title">
          Resolved
        </h2>
        <ResolvedList prompts={hub.resolved} myDeviceId={hub.deviceId} />
      </section>
    </main>
  );
}
