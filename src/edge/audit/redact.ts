// Redaction applied to everything written to the audit log or exported: secrets become markers.

export const REDACTED = "[REDACTED]";
const secretKey =
  /(token|secret|password|passphrase|authorization|cookie|pepper|api[_-]?key|^code$|credential)/i;
const tokenLike = /alk_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g;
const bearerLike = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;

function redactString(value: string): string {
  return value.replace(tokenLike, `${REDACTED}:token`).replace(bearerLike, `$1 ${REDACTED}`);
}

/** Returns a deep copy with secret-named fields replaced and token-shaped strings masked. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 12) return REDACTED;
  if (typeof value === "string") return redactString(value);
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] =
        secretKey.test(key) && inner !== null && typeof inner !== "boolean"
          ? REDACTED
          : redact(inner, depth + 1);
    }
    return out;
  }
  return value;
}
