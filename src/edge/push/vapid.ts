// The server's VAPID key pair (RFC 8292). Production sets VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY as Worker secrets;
// without them the first use generates a pair and keeps it in D1 with the private key encrypted (AES-GCM under a
// key derived from TOKEN_PEPPER), so a local run needs no setup and the key survives restarts.
import type { VapidKeys } from "@block65/webcrypto-web-push";
import { eq } from "drizzle-orm";
import { base64url } from "../auth/crypto.ts";
import type { Db } from "../db/client.ts";
import { pushKeys } from "../db/schema.ts";

const ROW_ID = "vapid";
const DEFAULT_SUBJECT = "mailto:airlock@localhost";

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replaceAll("-", "+").replaceAll("_", "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function sealingKey(pepper: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(pepper), "HKDF", false, [
    "deriveKey",
  ]);
  return crypto.subtle.deriveKey(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: new TextEncoder().encode("airlock-vapid-v1"),
      info: new TextEncoder().encode("vapid private key"),
    },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

export async function seal(pepper: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await sealingKey(pepper),
    new TextEncoder().encode(plaintext),
  );
  return `${base64url(iv)}.${base64url(new Uint8Array(sealed))}`;
}

export async function unseal(pepper: string, sealed: string): Promise<string> {
  const [iv, data] = sealed.split(".");
  if (!iv || !data) throw new Error("sealed value is malformed");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64url(iv) },
    await sealingKey(pepper),
    fromBase64url(data),
  );
  return new TextDecoder().decode(plain);
}

/** A new P-256 pair: the public key as the uncompressed point (base64url), the private key as the JWK `d`. */
export async function generateVapidPair(): Promise<{ publicKey: string; privateKey: string }> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  if (!jwk.x || !jwk.y || !jwk.d) throw new Error("exported key lacks coordinates");
  const point = new Uint8Array(65);
  point[0] = 4;
  point.set(fromBase64url(jwk.x), 1);
  point.set(fromBase64url(jwk.y), 33);
  return { publicKey: base64url(point), privateKey: jwk.d };
}

export async function vapidKeys(env: Env, db: Db): Promise<VapidKeys> {
  const subject = env.AIRLOCK_PUSH_SUBJECT || DEFAULT_SUBJECT;
  const secrets = env as Env & { VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string };
  if (secrets.VAPID_PUBLIC_KEY && secrets.VAPID_PRIVATE_KEY) {
    return { subject, publicKey: secrets.VAPID_PUBLIC_KEY, privateKey: secrets.VAPID_PRIVATE_KEY };
  }
  const stored = (await db.select().from(pushKeys).where(eq(pushKeys.id, ROW_ID)).limit(1))[0];
  if (stored) {
    return {
      subject,
      publicKey: stored.publicKey,
      privateKey: await unseal(env.TOKEN_PEPPER, stored.privateKeyEnc),
    };
  }
  const fresh = await generateVapidPair();
  // Two first requests may race: the insert is a no-op for the loser, who then reads the winner's pair.
  await db
    .insert(pushKeys)
    .values({
      id: ROW_ID,
      publicKey: fresh.publicKey,
      privateKeyEnc: await seal(env.TOKEN_PEPPER, fresh.privateKey),
      createdAt: Date.now(),
    })
    .onConflictDoNothing();
  const row = (await db.select().from(pushKeys).where(eq(pushKeys.id, ROW_ID)).limit(1))[0];
  if (!row) throw new Error("VAPID key row missing after insert");
  return { subject, publicKey: row.publicKey, privateKey: await unseal(env.TOKEN_PEPPER, row.privateKeyEnc) };
}
