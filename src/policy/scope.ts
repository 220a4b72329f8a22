// Scope identity: the canonical text of a scope and its sha256, used for grants and audit.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import type { Scope } from "./types.ts";

/** `kind:summary`; the summary is already normalized and redacted, so no secret is hashed raw. */
export function canonicalScope(scope: Scope): string {
  return `${scope.kind}:${scope.summary}`;
}

export function scopeHash(scope: Scope): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalScope(scope))));
}
