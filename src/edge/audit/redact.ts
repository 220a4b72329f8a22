// The audit log's redaction is the policy's (src/policy/redact.ts): one marker, one set of rules.
export { REDACTED, redactValue as redact } from "../../policy/redact.ts";
