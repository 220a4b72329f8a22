// A prompt about a proposed side effect (the conveyor): the backend-rendered what / where / impact, who proposed
// it and from where, and the redacted arguments (start and end shown when long). Every field is untrusted text
// (a model or a webhook wrote it) and goes through `visibleText` like a command.
import { visibleText } from "../../../src/policy/shown-call.ts";
import type { CapabilityPrompt } from "../../../src/protocol/prompts.ts";
import { connectorCard } from "../connector-card.ts";
import { CommandText } from "./command-text.tsx";
import { ConnectorCardView, IdentityBanner } from "./connector-card.tsx";

type Proposal = NonNullable<CapabilityPrompt["proposal"]>;

const SOURCE_WORDS: Record<Proposal["source"]["kind"], string> = {
  job: "hosted job",
  webhook: "webhook",
  api: "the API",
  companion: "companion",
  schedule: "schedule",
  chat: "chat",
  mcp: "an MCP client",
};

interface Props {
  proposal: Proposal;
  /** A device's name by id: a companion's proposal names the machine, never its raw id. */
  machineOf(deviceId: string): string | null;
  onSeen?: () => void;
}

export function ProposalBlock({ proposal, machineOf, onSeen }: Props) {
  const v = visibleText;
  const { kind, ref } = proposal.source;
  const from = kind === "companion" && ref ? (machineOf(ref) ?? "a companion") : ref ? v(ref) : "";
  const card = connectorCard(proposal.tool, proposal.args_text, proposal.summary.where);
  return (
    <div class="call proposal" data-proposal-id={proposal.id}>
      <IdentityBanner identity={proposal.identity} />
      <p class="call-description">
        <strong>{v(proposal.summary.what)}</strong>
      </p>
      {card ? <ConnectorCardView card={card} /> : null}
      <dl class="details">
        <dt>Where</dt>
        <dd>{v(proposal.summary.where)}</dd>
        <dt>Impact</dt>
        <dd>{v(proposal.summary.impact)}</dd>
        <dt>Tool</dt>
        <dd>
          <code>{v(proposal.tool)}</code> ({proposal.risk_class}, as {v(proposal.identity)})
        </dd>
        <dt>From</dt>
        <dd class="proposal-from">
          {SOURCE_WORDS[kind]}
          {from ? ` ${from}` : ""}
        </dd>
        <dt>Why</dt>
        <dd>{v(proposal.justification)}</dd>
        {proposal.gate_reason && proposal.gate !== "none" ? (
          <>
            <dt>Needs you</dt>
            <dd class="gate-reason">{v(proposal.gate_reason)}</dd>
          </>
        ) : null}
        <dt>Arguments</dt>
        <dd>
          <CommandText text={proposal.args_text} marks={false} {...(onSeen ? { onSeen } : {})} />
        </dd>
      </dl>
    </div>
  );
}
