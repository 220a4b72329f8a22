// Proposals: side effects from jobs, webhooks and scripts (proposed → approved → executed → audited). Pending ones
// are answered in Approvals, through the same queue as agent calls; here: the list by state and each one's detail.
import { useState } from "preact/hooks";
import { summaryText } from "../proposal-summary.ts";
import { navigate, routeDetail } from "../route.ts";
import { BackLink, field, listOf, Rec, RecordDetails, StateTag, when } from "./records.tsx";
import { Show, useResource } from "./resource.tsx";
import type { ViewProps } from "./view-props.ts";

const Proposals = listOf("proposals");
const states = ["", "PENDING", "APPROVED", "EXECUTED", "REJECTED", "EXPIRED", "FAILED", "PARTIAL"];

export function ProposalsView({ path }: ViewProps) {
  const id = routeDetail(path);
  return id ? <ProposalDetail id={id} /> : <ProposalList />;
}

function ProposalList() {
  const [state, setState] = useState("");
  const [resource, reload] = useResource(`/v1/proposals${state ? `?state=${state}` : ""}`, Proposals);
  return (
    <main class="view">
      <h1 class="section-title">Proposals</h1>
      <label class="search">
        State{" "}
        <select value={state} onChange={(e) => setState(e.currentTarget.value)}>
          {states.map((s) => (
            <option key={s} value={s}>
              {s || "Any"}
            </option>
          ))}
        </select>
      </label>
      <Show resource={resource} reload={reload} feature="Proposals are">
        {(list) =>
          list.length ? (
            <ul class="menu">
              {list.map((p) => (
                <li key={field(p, "id")}>
                  <a
                    class="menu-row"
                    href={`/proposals/${field(p, "id")}`}
                    onClick={(e) => {
                      e.preventDefault();
                      navigate(`/proposals/${encodeURIComponent(field(p, "id"))}`);
                    }}
                  >
                    <span>
                      <StateTag state={field(p, "state", "status")} /> <strong>{field(p, "tool")}</strong>
                    </span>
                    <span class="small">{summaryText(p)}</span>
                    <span class="muted small">{when(p, "created_at")}</span>
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted empty">No proposals{state ? ` in state ${state}` : ""}.</p>
          )
        }
      </Show>
    </main>
  );
}

function ProposalDetail({ id }: { id: string }) {
  const [resource, reload] = useResource(`/v1/proposals/${encodeURIComponent(id)}`, Rec);
  return (
    <main class="view">
      <BackLink to="proposals" label="Proposals" />
      <h1 class="section-title">Proposal</h1>
      <Show resource={resource} reload={reload} feature="Proposals are">
        {(raw) => {
          const p = (raw.proposal as Rec | undefined) ?? raw;
          return (
            <div class="panel">
              <p>
                <StateTag state={field(p, "state", "status")} /> <strong>{field(p, "tool")}</strong>
              </p>
              <p>{summaryText(p)}</p>
              {field(p, "state", "status") === "PENDING" ? (
                <button type="button" class="decision allow" onClick={() => navigate("approvals")}>
                  Answer it in Approvals
                </button>
              ) : null}
              <RecordDetails rec={p} skip={["summary"]} />
            </div>
          );
        }}
      </Show>
    </main>
  );
}
