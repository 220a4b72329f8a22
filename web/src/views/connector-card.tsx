// A connector proposal's own card (web/src/connector-card.ts): who it acts as first and large, then the
// email, event or pull request as a person reads it. Every value is untrusted text: through visibleText.
import { Fragment } from "preact";
import { visibleText } from "../../../src/policy/shown-call.ts";
import { type ConnectorCard, identityLabel } from "../connector-card.ts";

export function IdentityBanner({ identity }: { identity: "user" | "bot" }) {
  return <p class={`identity-banner identity-${identity}`}>{identityLabel(identity)}</p>;
}

export function ConnectorCardView({ card }: { card: ConnectorCard }) {
  const v = visibleText;
  return (
    <div class={`connector-card connector-${card.kind}`}>
      <dl class="details">
        {card.rows.map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{v(value)}</dd>
          </Fragment>
        ))}
      </dl>
      {card.preview !== undefined ? (
        <pre class="connector-preview">{v(card.preview) || "(empty)"}</pre>
      ) : null}
    </div>
  );
}
