// Jobs: hosted agent runs with their state, steps and spend; cancel stops a run at its next step boundary. Both
// screens follow the job's progress live (job_updated on the socket).
import { useEffect, useState } from "preact/hooks";
import { api, errorMessage } from "../api.ts";
import { navigate, routeDetail } from "../route.ts";
import { ErrorNote } from "./error-note.tsx";
import { JobForm } from "./job-form.tsx";
import { BackLink, field, listOf, Rec, RecordDetails, StateTag, when } from "./records.tsx";
import { Show, useResource } from "./resource.tsx";
import type { ViewProps } from "./view-props.ts";

const Jobs = listOf("jobs");
const finished = /cancel|fail|done|complete|succe|partial/i;

export function JobsView({ path, hub }: ViewProps) {
  const id = routeDetail(path);
  return id ? <JobDetail id={id} hub={hub} /> : <JobList hub={hub} />;
}

/** Reloads when a job (any, or the one given) changes state or makes progress. */
function useJobUpdates(hub: ViewProps["hub"], reload: () => void, id?: string): void {
  useEffect(
    () =>
      hub.onRuntime((message) => {
        if (message.type === "job_updated" && (id === undefined || message.data.id === id)) reload();
      }),
    [hub, reload, id],
  );
}

function JobList({ hub }: { hub: ViewProps["hub"] }) {
  const [resource, reload] = useResource("/v1/jobs", Jobs);
  const [starting, setStarting] = useState(false);
  useJobUpdates(hub, reload);
  return (
    <main class="view">
      <h1 class="section-title">Jobs</h1>
      {starting ? (
        <JobForm onCancel={() => setStarting(false)} />
      ) : (
        <button type="button" class="decision allow" onClick={() => setStarting(true)}>
          Start a job
        </button>
      )}
      <Show resource={resource} reload={reload} feature="Jobs are">
        {(list) =>
          list.length ? (
            <ul class="menu">
              {list.map((job) => (
                <li key={field(job, "id")}>
                  <a
                    class="menu-row"
                    href={`/jobs/${field(job, "id")}`}
                    onClick={(e) => {
                      e.preventDefault();
                      navigate(`/jobs/${encodeURIComponent(field(job, "id"))}`);
                    }}
                  >
                    <span>
                      <StateTag state={field(job, "state", "status")} />{" "}
                      <strong>{field(job, "title", "name", "id")}</strong>
                    </span>
                    <span class="muted small">{when(job, "created_at", "started_at")}</span>
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted empty">No jobs yet. Start one here; schedules and webhooks start them too.</p>
          )
        }
      </Show>
    </main>
  );
}

function JobDetail({ id, hub }: { id: string; hub: ViewProps["hub"] }) {
  const [resource, reload] = useResource(`/v1/jobs/${encodeURIComponent(id)}`, Rec);
  useJobUpdates(hub, reload, id);
  const [error, setError] = useState("");
  const cancel = async () => {
    setError("");
    try {
      await api(`/v1/jobs/${encodeURIComponent(id)}/cancel`, Rec, { method: "POST" });
      reload();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <main class="view">
      <BackLink to="jobs" label="Jobs" />
      <h1 class="section-title">Job</h1>
      <Show resource={resource} reload={reload} feature="Jobs are">
        {(raw) => {
          const job = (raw.job as Rec | undefined) ?? raw;
          const state = field(job, "state", "status");
          return (
            <div class="panel">
              <p>
                <StateTag state={state} /> <strong>{field(job, "title", "name", "id")}</strong>
              </p>
              {field(job, "result") ? <p class="job-result">{field(job, "result")}</p> : null}
              {/* What Airlock verified from what the job did, beside the model's own words. */}
              {typeof job.outcome === "object" && job.outcome !== null ? (
                <p class="job-outcome">
                  <StateTag state={field(job.outcome as Rec, "state")} /> Verified:{" "}
                  {field(job.outcome as Rec, "summary")}
                </p>
              ) : null}
              {finished.test(state) ? null : (
                <button type="button" class="decision deny" onClick={() => void cancel()}>
                  Cancel job
                </button>
              )}
              <RecordDetails rec={job} />
            </div>
          );
        }}
      </Show>
      <ErrorNote message={error} />
    </main>
  );
}
