// The Worker's secrets `airlock deploy` sets: which it generates (docs/configuration.md) and which only a person has.
import { randomBytes, webcrypto } from "node:crypto";

/** Secrets the Worker must have (wrangler.toml `[secrets] required`), generated when missing. */
export const GENERATED = ["TOKEN_PEPPER", "ADMIN_BOOTSTRAP_TOKEN"] as const;
/** The Web Push key pair: generated together, so a deployment never holds half of one. */
export const VAPID = ["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY"] as const;
/** The hosted runtime's model key: only a person has it (optional; hosted jobs stay off without it). */
export const MODEL_KEY = "AIRLOCK_MODEL_API_KEY";

/** 32 random bytes, base64url: TOKEN_PEPPER wants at least 32 bytes, ADMIN_BOOTSTRAP_TOKEN at least 16 characters. */
export function randomSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** A P-256 pair as the Worker reads it: the uncompressed public point and the private scalar `d`, base64url. */
export async function vapidPair(): Promise<Record<(typeof VAPID)[number], string>> {
  const pair = await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]);
  const jwk = await webcrypto.subtle.exportKey("jwk", pair.privateKey);
  if (!jwk.x || !jwk.y || !jwk.d) throw new Error("the generated VAPID key has no x, y or d");
  const point = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x, "base64url"),
    Buffer.from(jwk.y, "base64url"),
  ]);
  return { VAPID_PUBLIC_KEY: point.toString("base64url"), VAPID_PRIVATE_KEY: jwk.d };
}

/**
 * The secrets to add, given the names the Worker already has: never a new value for one that exists (a new
 * TOKEN_PEPPER would void every token), the model key only when a person gave one.
 */
export async function missingSecrets(
  existing: ReadonlySet<string>,
  modelKey: string | undefined,
): Promise<Record<string, string>> {
  const add: Record<string, string> = {};
  for (const name of GENERATED) if (!existing.has(name)) add[name] = randomSecret();
  if (VAPID.some((name) => !existing.has(name))) Object.assign(add, await vapidPair());
  if (modelKey && !existing.has(MODEL_KEY)) add[MODEL_KEY] = modelKey;
  return add;
}
