// Policy: emergency switches first (that is why a person opens it in a hurry), then the account policy: read it,
// edit it with validation and a diff before saving, and explain what it would decide for a sample call.
import { useEffect, useState } from "preact/hooks";
import { EmergencyPanel } from "./emergency-panel.tsx";
import { PolicyEditor } from "./policy-editor.tsx";
import { PolicyExplain } from "./policy-explain.tsx";
import { PolicyStatsPanel } from "./policy-stats-panel.tsx";
import type { ViewProps } from "./view-props.ts";

export function PolicyView({ hub }: ViewProps) {
  const [draft, setDraft] = useState<string | null>(null);
  useEffect(() => {
    document.getElementById("emergency-heading")?.scrollIntoView({ block: "start" });
  }, []);
  return (
    <main class="view">
      <section aria-labelledby="emergency-heading">
        <h1 id="emergency-heading" class="section-title">
          Emergency switches
        </h1>
        <EmergencyPanel controls={hub.emergency} setControls={hub.setEmergency} />
      </section>
      <section aria-labelledby="stats-heading">
        <h2 id="stats-heading" class="section-title">
          How often it asks
        </h2>
        <PolicyStatsPanel />
      </section>
      <section aria-labelledby="policy-heading">
        <h2 id="policy-heading" class="section-title">
          Account policy
        </h2>
        <PolicyEditor onDraft={setDraft} />
      </section>
      <section aria-labelledby="explain-heading">
        <h2 id="explain-heading" class="section-title">
          Explain a call
        </h2>
        <PolicyExplain draft={draft} />
      </section>
    </main>
  );
}
