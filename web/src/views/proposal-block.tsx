// A prompt about a proposed side effect (the conveyor): the backend-rendered what / where / impact, who proposed
// it and from where, and the redacted arguments (collapsed when long).
import type { CapabilityPrompt } from "../../../src/protocol/prompts.ts";
import { CommandText } from "./command-text.tsx";

type Proposal = NonNullable<CapabilityPrompt["proposal"]>;

export function ProposalBlock({ proposal }: { proposal: Proposal }) {
  return (
    <div class="call proposal" data-proposal-id={proposal.id}>
      <p class="call-description">
        <strong>{proposal.summary.what}</strong>
      </p>
      <dl class="details">
        <dt>Where</dt>
        <dd>{proposal.summary.where}</dd>
        <dt>Impact</dt>
        <dd>{proposal.summary.impact}</dd>
        <dt>Tool</dt>
        <dd>
          <code>{proposal.tool}</code> ({proposal.risk_class}, as {proposal.identity})
        </dd>
        <dt>From</dt>
        <dd>
          {proposal.source.kind}
          {proposal.source.ref ? ` ${proposal.source.ref}` : ""}
        </dd>
        <dt>Why</dt>
        <dd>{proposal.justification}</dd>
        {proposal.gate_reason && proposal.gate !== "none" ? (
          <>
            <dt>Needs you</dt>
            <dd class="gate-reason">{proposal.gate_reason}</dd>
          </>
        ) : null}
        <dt>Arguments</dt>
        <dd>
          <CommandText text={proposal.args_text} />
        </dd>
      </dl>
    </div>
  );
}
