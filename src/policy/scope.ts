// Scope identity: the canonical text of a scope and its sha256, used for grants and audit.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { Lru } from "./lru.ts";
import type { Scope } from "./types.ts";

/** `kind:summary`; the summary is already normalized and redacted, so no secret is hashed raw. */
export function canonicalScope(scope: Scope): string {
  return `${scope.kind}:${scope.summary}`;
}

const hashes = new Lru<string, string>(4096);

export function scopeHash(scope: Scope): string {
  const canonical = canonicalScope(scope);
  let hex = hashes.get(canonical);
  if (hex === undefined) {
    hex = bytesToHex(sha256(utf8ToBytes(canonical)));
    hashes.set(canonical, hex);
  }
  return hex;
}
