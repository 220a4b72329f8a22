// Webhook secrets: `whsec_` + base64 of 32 random bytes (the Standard Webhooks format), shown once.
// HMAC verification needs the secret itself, so it cannot be hashed: it is stored AES-256-GCM
// encrypted under a key derived (HKDF-SHA256) from the server's TOKEN_PEPPER, bound to the hook id.
import { base64url, randomBytes } from "../auth/crypto.ts";

const encoder = new TextEncoder();
const SALT = encoder.encode("airlock webhook secrets");
const keys = new Map<string, Promise<CryptoKey>>();

function keyFor(pepper: string): Promise<CryptoKey> {
  let key = keys.get(pepper);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", encoder.encode(pepper), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: SALT, info: encoder.encode("v1") },
          base,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    keys.set(pepper, key);
  }
  return key;
}

function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export function newHookSecret(): string {
  const bytes = randomBytes(32);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return `whsec_${btoa(binary)}`;
}

/** `v1.<iv>.<ciphertext>`; the hook id is the additional data, so a ciphertext cannot move to another hook. */
export async function sealSecret(pepper: string, hookId: string, secret: string): Promise<string> {
  const iv = randomBytes(12);
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(hookId) },
    await keyFor(pepper),
    encoder.encode(secret),
  );
  return `v1.${base64url(iv)}.${base64url(new Uint8Array(sealed))}`;
}

export async function openSecret(pepper: string, hookId: string, sealed: string): Promise<string> {
  const [version, iv, data] = sealed.split(".");
  if (version !== "v1" || !iv || !data) throw new Error("unknown sealed secret format");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64url(iv), additionalData: encoder.encode(hookId) },
    await keyFor(pepper),
    fromBase64url(data),
  );
  return new TextDecoder().decode(plain);
}
