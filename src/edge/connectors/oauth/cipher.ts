// Sealing connection secrets (access and refresh tokens, PKCE verifiers) with AES-GCM under the Worker secret
// AIRLOCK_OAUTH_KEYS: a key ring "id:base64key,id:base64key", the first one sealing, every one opening. Rotation
// is adding a new key first and keeping the old one until no row names it.
import { base64url } from "../../auth/crypto.ts";

export interface SealingKey {
  id: string;
  key: CryptoKey;
}

export interface KeyRing {
  /** The key new seals use. */
  current: SealingKey;
  byId: ReadonlyMap<string, CryptoKey>;
}

export class KeyRingError extends Error {}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const KEY_ID = /^[A-Za-z0-9._-]{1,32}$/;

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const normal = text.replaceAll("-", "+").replaceAll("_", "/");
  const binary = atob(normal + "=".repeat((4 - (normal.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

const rings = new Map<string, Promise<KeyRing>>();

/** Parses and imports the ring once per isolate; a malformed ring is refused whole (never half a ring). */
export function keyRing(secret: string | undefined): Promise<KeyRing> {
  const text = secret?.trim() ?? "";
  if (!text) return Promise.reject(new KeyRingError("AIRLOCK_OAUTH_KEYS is not set"));
  let ring = rings.get(text);
  if (!ring) {
    ring = importRing(text);
    rings.set(text, ring);
    ring.catch(() => rings.delete(text));
  }
  return ring;
}

async function importRing(text: string): Promise<KeyRing> {
  const entries = text.split(",").map((part) => part.trim());
  const byId = new Map<string, CryptoKey>();
  let current: SealingKey | undefined;
  for (const [index, entry] of entries.entries()) {
    const colon = entry.indexOf(":");
    const id = entry.slice(0, colon);
    if (colon < 1 || !KEY_ID.test(id))
      throw new KeyRingError(`AIRLOCK_OAUTH_KEYS entry ${index + 1} has no valid key id`);
    if (byId.has(id)) throw new KeyRingError(`AIRLOCK_OAUTH_KEYS names key ${id} twice`);
    let raw: Uint8Array;
    try {
      raw = fromBase64(entry.slice(colon + 1));
    } catch {
      throw new KeyRingError(`AIRLOCK_OAUTH_KEYS key ${id} is not base64`);
    }
    if (raw.byteLength !== 32) throw new KeyRingError(`AIRLOCK_OAUTH_KEYS key ${id} is not 32 bytes`);
    const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    byId.set(id, key);
    current ??= { id, key };
  }
  if (!current) throw new KeyRingError("AIRLOCK_OAUTH_KEYS has no key");
  return { current, byId };
}

/**
 * Seals `plaintext` with the ring's current key. `context` (the row and field) is the additional data: a sealed
 * value copied into another row or field does not open there.
 */
export async function seal(ring: KeyRing, plaintext: string, context: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(context) },
    ring.current.key,
    encoder.encode(plaintext),
  );
  return `${base64url(iv)}.${base64url(new Uint8Array(sealed))}`;
}

/** Opens a value sealed under `keyId`; throws KeyRingError when the key is gone or the value was tampered with. */
export async function open(ring: KeyRing, keyId: string, sealed: string, context: string): Promise<string> {
  const key = ring.byId.get(keyId);
  if (!key) throw new KeyRingError(`key ${keyId} is no longer in AIRLOCK_OAUTH_KEYS`);
  const [iv, body] = sealed.split(".");
  if (!iv || !body) throw new KeyRingError("sealed value is malformed");
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64(iv), additionalData: encoder.encode(context) },
      key,
      fromBase64(body),
    );
    return decoder.decode(plain);
  } catch {
    throw new KeyRingError(`sealed value does not open under key ${keyId}`);
  }
}
