// The redacted text of a unit, for reasons and scopes: units come from the analysis cache, so each
// is redacted once (redaction runs a dozen patterns; a decision shows every part twice).
import { redactText } from "../redact.ts";
import { memo } from "./memo.ts";
import type { ShellUnit } from "./units.ts";

export function redactedText(unit: ShellUnit): string {
  return memo(unit, "redacted", () => redactText(unit.text));
}
