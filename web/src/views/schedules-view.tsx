// Schedules: when hosted jobs run by themselves (cron in words, interval, at), with pause/resume and run-now, and
// creating or editing one from the phone (schedule-form.tsx).
import { useState } from "preact/hooks";
import { api, errorMessage } from "../api.ts";
import { cronInWords } from "../cron-words.ts";
import { navigate } from "../route.ts";
import { field, listOf, Rec, when } from "./records.tsx";
import { Show, useResource } from "./resource.tsx";
import { ScheduleForm } from "./schedule-form.tsx";
import type { ViewProps } from "./view-props.ts";

const Schedules = listOf("schedules");

function cadence(s: Rec): string {
  const kind = field(s, "kind");
  if (kind === "cron") {
    const words = cronInWords(field(s, "cron"));
    return words.ok ? words.text : `cron ${field(s, "cron")}`;
  }
  if (kind === "interval") {
    const seconds = Number(field(s, "every_seconds"));
    return seconds % 60 === 0 ? `Every ${seconds / 60} min` : `Every ${seconds} s`;
  }
  if (kind === "at") return `once at ${when(s, "at")}`;
  return kind;
}

export function SchedulesView(_: ViewProps) {
  const [resource, reload] = useResource("/v1/schedules", Schedules);
  const [note, setNote] = useState("");
  /** The form: closed, a new schedule, or the schedule being edited. */
  const [editing, setEditing] = useState<Rec | "new" | null>(null);
  const done = (message: string) => {
    setEditing(null);
    setNote(message);
    reload();
  };
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
      {editing ? (
        <ScheduleForm
          key={editing === "new" ? "new" : field(editing, "id")}
          schedule={editing === "new" ? null : editing}
          onDone={done}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <button type="button" class="decision allow" onClick={() => setEditing("new")}>
          New schedule
        </button>
      )}
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
                      {cadence(s)} ({field(s, "timezone").replaceAll("_", " ")}) · next{" "}
                      {paused ? "—" : when(s, "next_run_at") || "—"}
                    </div>
                    <div class="decisions three">
                      <button type="button" class="decision neutral" onClick={() => setEditing(s)}>
                        Edit
                      </button>
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
