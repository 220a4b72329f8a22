// The settings view: emergency switches first (that is why a person opens it in a hurry), then devices.
import type { Hub } from "../use-hub.ts";
import { DevicesPanel } from "./devices-panel.tsx";
import { EmergencyPanel } from "./emergency-panel.tsx";

export function SettingsView({ hub, onSelfRevoked }: { hub: Hub; onSelfRevoked(): void }) {
  return (
    <main class="view">
      <section aria-labelledby="emergency-heading">
        <h1 id="emergency-heading" class="section-title">
          Emergency switches
        </h1>
        <EmergencyPanel controls={hub.emergency} setControls={hub.setEmergency} />
      </section>
      <section aria-labelledby="devices-heading">
        <h2 id="devices-heading" class="section-title">
          Devices
        </h2>
        <DevicesPanel onSelfRevoked={onSelfRevoked} />
      </section>
    </main>
  );
}
