// Parity tokens `alkp_<payload>.<mac>`: short-lived, read-only bearer tokens for `npm run parity` against a
// deployment. Stateless: the payload (user, minting device, expiry) is MACed with a key derived from TOKEN_PEPPER,
// so nothing is stored. Still revocable: a token minted by a device dies with that device, and every token dies
// when TOKEN_PEPPER changes. What it may do is PARITY_TOKEN_ACTIONS (src/protocol/roles.ts), checked in authorize.
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { devices, users } from "../db/schema.ts";
import { base64url, constantTimeEqual, hmacHex, randomBytes } from "./crypto.ts";

const PREFIX = "alkp_";
/** Stands for the minting device when the recovery code minted the token. */
export const RECOVERY_MINTER = "recovery";

const Payload = z.strictObject({
  v: z.literal(1),
  /** user id */
  u: z.string().min(1),
  /** the approver device that minted it, or "recovery" */
  d: z.string().min(1),
  /** expiry, ms since the epoch */
  e: z.number().int().positive(),
  /** nonce: two tokens minted in the same millisecond still differ */
  n: z.string().min(1),
});
type Payload = z.infer<typeof Payload>;

// A MAC input no other HMAC under TOKEN_PEPPER can share (device secrets, codes and recovery codes hash other shapes).
const mac = (pepper: string, payload: string) => hmacHex(pepper, `parity-token:v1:${payload}`);

export async function mintParityToken(
  pepper: string,
  userId: string,
  minter: string,
  ttlMs: number,
  now = Date.now(),
): Promise<{ token: string; expiresAt: number }> {
  const payload: Payload = { v: 1, u: userId, d: minter, e: now + ttlMs, n: base64url(randomBytes(9)) };
  const encoded = base64url(new TextEncoder().encode(JSON.stringify(payload)));
  const tag = await mac(pepper, encoded);
  return { token: `${PREFIX}${encoded}.${tag}`, expiresAt: payload.e };
}

export const isParityToken = (token: string) => token.startsWith(PREFIX);

export interface VerifiedParityToken {
  userId: string;
  minter: string;
  expiresAt: number;
}

/** The token's user, or null when it is malformed, forged, expired, or its minting device is revoked. */
export async function verifyParityToken(
  db: Db,
  pepper: string,
  token: string,
  now = Date.now(),
): Promise<VerifiedParityToken | null> {
  const match = /^alkp_([A-Za-z0-9_-]{1,512})\.([0-9a-f]{64})$/.exec(token);
  if (!match) return null;
  const [, encoded, tag] = match as unknown as [string, string, string];
  if (!constantTimeEqual(await mac(pepper, encoded), tag)) return null;
  let json: unknown;
  try {
    json = JSON.parse(atob(encoded.replaceAll("-", "+").replaceAll("_", "/")));
  } catch {
    return null;
  }
  const payload = Payload.safeParse(json);
  if (!payload.success || payload.data.e <= now) return null;
  const { u, d, e } = payload.data;
  if (d === RECOVERY_MINTER) {
    const owner = await db.select({ id: users.id }).from(users).where(eq(users.id, u)).limit(1);
    return owner.length ? { userId: u, minter: d, expiresAt: e } : null;
  }
  const minter = await db
    .select({ id: devices.id })
    .from(devices)
    .where(
      and(eq(devices.id, d), eq(devices.userId, u), eq(devices.role, "approver"), isNull(devices.revokedAt)),
    )
    .limit(1);
  return minter.length ? { userId: u, minter: d, expiresAt: e } : null;
}
