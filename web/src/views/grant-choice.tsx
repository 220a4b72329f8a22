// What "Allow for session", "Allow always" and "Deny always" would save: by default exactly the calls shown; a
// wider pattern only when the person picks it here, shown verbatim. Appears when the hub offers choices.
import type { GrantChoices } from "../grant-choices.ts";
import { shortText } from "../labels.ts";

interface Props {
  promptId: string;
  choices: GrantChoices;
  /** null: exactly what is shown (the default). */
  pattern: string | null;
  onPattern(pattern: string | null): void;
}

export function GrantChoice({ promptId, choices, pattern, onPattern }: Props) {
  if (!choices.wider.length) return null;
  const name = `grant-${promptId}`;
  const exact = choices.exact.map((e) => shortText(e.pattern, 60)).join(", ");
  return (
    <fieldset class="choice grant-choice">
      <legend class="small">"Session" and "always" answers save</legend>
      <label>
        <input type="radio" name={name} checked={pattern === null} onChange={() => onPattern(null)} />
        <span>
          exactly this{choices.moreExact ? ` (+${choices.moreExact} more)` : ""}: <code>{exact}</code>
        </span>
      </label>
      {choices.wider.map((wider) => (
        <label key={wider}>
          <input type="radio" name={name} checked={pattern === wider} onChange={() => onPattern(wider)} />
          <span>
            everything matching <code>{wider}</code>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
