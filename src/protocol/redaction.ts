// The redaction marker on the wire: every masked secret in a prompt, an audit event or an NDJSON export
// reads `<redacted>`. The rules that decide what is a secret live in src/policy/redact.ts.
export { REDACTED } from "../policy/redact.ts";

/** What each NDJSON export line carries, so a reader knows masking was applied and how it looks. */
export const REDACTION_NOTE = { applied: true, marker: "<redacted>" } as const;
