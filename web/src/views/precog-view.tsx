// Precognition stats per workspace, as each companion last reported them (GET /v1/futures/stats): hits, misses by
// reason, stale refusals and time saved, per class. Counts only: paths and contents never leave the machine.
import { useEffect, useState } from "preact/hooks";
import type { Device } from "../../../src/protocol/pairing.ts";
import { loadDevices } from "../devices-cache.ts";
import { FuturesStatsList, totals } from "../precog-stats.ts";
import { Show, useResource } from "./resource.tsx";
import type { ViewProps } from "./view-props.ts";

export function PrecogView(_: ViewProps) {
  const [resource, reload] = useResource("/v1/futures/stats", FuturesStatsList);
  const [devices, setDevices] = useState<Device[]>([]);
  useEffect(() => {
    loadDevices().then(setDevices, () => setDevices([]));
  }, []);
  const nameOf = (id: string) => devices.find((d) => d.id === id)?.name ?? "a companion";
  return (
    <main class="view">
      <h1 class="section-title">Precognition</h1>
      <p class="muted small">
        Read-only results warmed ahead of time and served only when the agent asks for exactly that call and
        the workspace still matches.
      </p>
      <Show resource={resource} reload={reload} feature="Precognition stats are">
        {(data) =>
          data.devices.length ? (
            <>
              {data.devices.map((report) => (
                <section key={report.deviceId} class="panel" aria-label={nameOf(report.deviceId)}>
                  <h2 class="panel-title">
                    {nameOf(report.deviceId)}{" "}
                    <span class="muted small">
                      {report.stats.enabled ? report.stats.injectionMode : "off"} · reported{" "}
                      {new Date(report.receivedAt).toLocaleTimeString()}
                    </span>
                  </h2>
                  <ul class="devices">
                    {report.stats.workspaces.map((w) => {
                      const t = totals(w);
                      return (
                        <li key={w.workspaceId}>
                          <strong>{w.name}</strong>
                          <div class="stats">
                            <span>
                              <strong>{t.hits}</strong> hits
                            </span>
                            <span>
                              <strong>{t.misses}</strong> misses
                            </span>
                            <span>
                              <strong>{t.stale}</strong> stale refused
                            </span>
                            <span>
                              <strong>{(t.savedMs / 1000).toFixed(1)} s</strong> saved
                            </span>
                          </div>
                          <dl class="details">
                            {w.classes.map((c) => (
                              <>
                                <dt key={`${c.class}-t`}>
                                  <code>{c.class}</code>
                                </dt>
                                <dd key={`${c.class}-d`}>
                                  {c.hits} hits / {c.warms} warms
                                  {Object.entries(c.misses)
                                    .filter(([, n]) => n > 0)
                                    .map(([reason, n]) => ` · ${n} ${reason.replaceAll("_", " ")}`)
                                    .join("")}
                                </dd>
                              </>
                            ))}
                          </dl>
                        </li>
                      );
                    })}
                    {report.stats.workspaces.length ? null : <li class="muted">No workspace warmed yet.</li>}
                  </ul>
                </section>
              ))}
            </>
          ) : (
            <p class="muted empty">No companion has reported precognition stats yet.</p>
          )
        }
      </Show>
    </main>
  );
}
