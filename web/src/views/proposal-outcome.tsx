// What became of an approved side effect, on its card and in the Resolved list: EXECUTED, FAILED or PARTIAL with
// the execution envelope's verification line, so "Allowed once" is never the last word on a proposal that failed.
// Live from the socket's `proposal_updated`; a card resolved before this page opened asks the API once.
import { useEffect, useState } from "preact/hooks";
import { visibleText } from "../../../src/policy/shown-call.ts";
import type { ProposalView } from "../../../src/protocol/conveyor.ts";
import { api } from "../api.ts";

const STATE_WORDS: Record<ProposalView["state"], string> = {
  PENDING: "Waiting for a decision",
  APPROVED: "Approved · running",
  REJECTED: "Rejected",
  EXPIRED: "Expired",
  EXECUTED: "EXECUTED",
  FAILED: "FAILED",
  PARTIAL: "PARTIAL",
};

const VERIFIED: Record<string, string> = {
  passed: "verified",
  failed: "verification failed",
  not_applicable: "not verifiable",
};

export function ProposalOutcome({ id, live }: { id: string; live: ProposalView | undefined }) {
  const [fetched, setFetched] = useState<ProposalView | null>(null);
  useEffect(() => {
    if (live) return;
    let current = true;
    api(`/v1/proposals/${encodeURIComponent(id)}`, (v) => v.ProposalOne).then(
      (one) => current && setFetched(one.proposal),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [id, live]);
  const view = live ?? fetched;
  if (!view) return null;
  const envelope = view.envelope;
  const tone =
    view.state === "EXECUTED"
      ? "allowed"
      : view.state === "FAILED" || view.state === "PARTIAL"
        ? "denied"
        : "";
  return (
    <p class={`proposal-outcome ${tone}`} data-state={view.state}>
      <strong>{STATE_WORDS[view.state]}</strong>
      {envelope?.failure ? ` · ${visibleText(envelope.failure.message)}` : ""}
      {envelope ? (
        <span class="verification">
          {" · "}
          {VERIFIED[envelope.verification.outcome] ?? envelope.verification.outcome}:{" "}
          {visibleText(envelope.verification.detail)}
        </span>
      ) : null}
    </p>
  );
}
