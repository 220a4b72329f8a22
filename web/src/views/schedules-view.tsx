// Schedules: when hosted jobs run by themselves (cron, interval, at), with pause/resume and run-now.
import { useState } from "preact/hooks";
import { api, errorMessage } from "../api.ts";
import type { ViewProps } from "../app.tsx";
import { navigate } from "../route.ts";
import { field, listOf, Rec, when } from "./records.tsx";
import { Show, useResource } from "./resource.tsx";

const Schedules = listOf("schedules");

function cadence(s: Rec): string {
  const kind = field(s, "kind");
  if (kind === "cron") return `cron ${field(s, "cron")}`;
  if (kind === "interval") return `every ${field(s, "every_seconds")} s`;
  if (kind === "at") return `once at ${when(s, "at")}`;
  return kind;
}

export function SchedulesView(_: ViewProps) {
  const [resource, reload] = useResource("/v1/schedules", Schedules);
  const [note, setNote] = useState("");
  const act = async (id: string, action: "pause" | "resume" | "run") => {
    setNote("");
    try {
      if (action === "run") {
        const started = await api(`/v1/schedules/${encodeURIComponent(id)}/run-now`, Rec, { method: "POST" });
        const job = field(started, "job_id", "id");
        setNote(job ? `Started job ${job}.` : "Started.");
        if (job) navigate(`/jobs/${encodeURIComponent(job)}`);
      } else {
        await api(`/v1/schedules/${encodeURIComponent(id)}`, Rec, {
          method: "PATCH",
          body: { paused: action === "pause" },
        });
        reload();
      }
    } catch (failure) {
      setNote(errorMessage(failure));
    }
  };
  return (
    <main class="view">
      <h1 class="section-title">Schedules</h1>
      <Show resource={resource} reload={reload} feature="Schedules are">
        {(list) =>
          list.length ? (
            <ul class="devices">
              {list.map((s) => {
                const id = field(s, "id");
                const paused = s.paused === true || field(s, "state", "status") === "paused";
                return (
                  <li key={id}>
                    <div class="device-line">
                      <strong>{field(s, "name", "id")}</strong>
                      <span class="tag">{field(s, "state") || (paused ? "paused" : "active")}</span>
                    </div>
                    <div class="muted small">
                      {cadence(s)} {field(s, "timezone")} · next{" "}
                      {paused ? "—" : when(s, "next_run_at") || "—"}
                    </div>
                    <div class="decisions two">
                      <button
                        type="button"
                        class="decision neutral"
                        onClick={() => void act(id, paused ? "resume" : "pause")}
                      >
                        {paused ? "Resume" : "Pause"}
                      </button>
                      <button type="button" class="decision allow" onClick={() => void act(id, "run")}>
                        Run now
                      </button>
                    </div>
                  </li>
                );
              })}
            </ul>
          ) : (
            <p class="muted empty">No schedules.</p>
          )
        }
      </Show>
      {note ? (
        <p class="card-status" role="status">
          {note}
        </p>
      ) : null}
    </main>
  );
}
