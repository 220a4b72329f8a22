// A call_id is bound to its call: the fingerprint of (session, agent, device, tool, input, cwd). The edge,
// the daemon's journal and the no-daemon path all compare it before they reuse an answer, so a replay
// of a known call_id with other content is a conflict, never the cached answer of another call.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

export interface CallIdentity {
  sessionId: string;
  agent: { id: string; version?: string | undefined };
  /** The device that submitted the call (null for a token-less caller, e.g. an admin). */
  deviceId: string | null;
  tool: string;
  input: unknown;
  cwd?: string | undefined;
}

const CANONICAL_DEPTH = 32;

/** JSON with object keys sorted, so the same content always hashes the same. */
export function canonicalJson(value: unknown, depth = 0): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  // Deeper than any real tool input: keep its own serialization (still deterministic for the same bytes).
  if (depth >= CANONICAL_DEPTH) return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, depth + 1)}`).join(",")}}`;
}

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** The call's fingerprint; a call that cannot be serialized gets a unique one (it can never match a replay). */
export function callFingerprint(call: CallIdentity): string {
  let text: string;
  try {
    text = canonicalJson([
      call.sessionId,
      call.agent.id,
      call.agent.version ?? null,
      call.deviceId,
      call.tool,
      call.input,
      call.cwd ?? null,
    ]);
  } catch {
    text = `unserializable:${Math.random()}:${Date.now()}`;
  }
  return sha256Hex(text);
}

/**
 * The id a companion uses when an agent reused a call id for different content (providers reuse ids
 * such as `call_0`): deterministic, so retries of that same content still converge on one answer.
 */
export function derivedCallId(callId: string, fingerprint: string): string {
  return `${callId.slice(0, 180)}~${fingerprint.slice(0, 16)}`;
}
