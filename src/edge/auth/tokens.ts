// Device tokens `alk_<token_id>.<secret>`: issue, verify with sliding renewal, revoke by device.
import { and, eq, isNull, sql } from "drizzle-orm";
import { tokenExpiresAt, tokenNeedsRenewal } from "../../policy/deadlines.ts";
import type { DeviceKind } from "../../protocol/pairing.ts";
import type { DeviceRole } from "../../protocol/roles.ts";
import type { Db } from "../db/client.ts";
import { authTokens, devices } from "../db/schema.ts";
import { base64url, constantTimeEqual, hmacHex, randomBytes } from "./crypto.ts";

// The TTL and renewal window are deadlines like every other: policy/deadlines.ts owns them.
export { TOKEN_RENEW_WINDOW_MS as RENEW_WINDOW_MS, TOKEN_TTL_MS } from "../../policy/deadlines.ts";

/**
 * last_seen is written at most this often per device, to keep reads from turning into writes: it is a D1 write
 * per device per period of use on the one shared database (docs/scale.md), and the dashboard shows it as a date.
 */
const LAST_SEEN_RESOLUTION_MS = 15 * 60 * 1000;

const tokenShape = /^alk_([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/;

export interface IssuedToken {
  token: string;
  tokenId: string;
  expiresAt: number;
}

export async function issueToken(
  db: Db,
  pepper: string,
  userId: string,
  deviceId: string,
  now = Date.now(),
): Promise<IssuedToken> {
  const tokenId = base64url(randomBytes(12));
  const secret = base64url(randomBytes(32)); // 256 bits
  const expiresAt = tokenExpiresAt(now);
  await db.insert(authTokens).values({
    id: tokenId,
    userId,
    deviceId,
    secretHash: await hmacHex(pepper, secret),
    createdAt: now,
    expiresAt,
  });
  return { token: `alk_${tokenId}.${secret}`, tokenId, expiresAt };
}

export interface VerifiedToken {
  userId: string;
  deviceId: string;
  deviceKind: DeviceKind;
  role: DeviceRole;
  tokenId: string;
  expiresAt: number;
}

/**
 * The lookup every authenticated request makes, built once per handle: drizzle's query building was a
 * measurable share of a request's CPU, and a prepared query skips it.
 */
const lookups = new WeakMap<Db, ReturnType<typeof prepareLookup>>();

function prepareLookup(db: Db) {
  return db
    .select({
      userId: authTokens.userId,
      deviceId: authTokens.deviceId,
      secretHash: authTokens.secretHash,
      expiresAt: authTokens.expiresAt,
      revokedAt: authTokens.revokedAt,
      deviceKind: devices.kind,
      role: devices.role,
      deviceRevokedAt: devices.revokedAt,
      lastSeenAt: devices.lastSeenAt,
    })
    .from(authTokens)
    .innerJoin(devices, eq(devices.id, authTokens.deviceId))
    .where(eq(authTokens.id, sql.placeholder("tokenId")))
    .limit(1)
    .prepare();
}

function tokenLookup(db: Db) {
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = prepareLookup(db);
    lookups.set(db, lookup);
  }
  return lookup;
}

/** Returns the token's owner, or null for anything malformed, unknown, expired or revoked. */
export async function verifyToken(
  db: Db,
  pepper: string,
  token: string,
  now = Date.now(),
): Promise<VerifiedToken | null> {
  const match = tokenShape.exec(token);
  if (!match) return null;
  const [, tokenId, secret] = match as unknown as [string, string, string];
  const rows = await tokenLookup(db).all({ tokenId });
  const row = rows[0];
  const presented = await hmacHex(pepper, secret);
  if (!row) {
    constantTimeEqual(presented, presented);
    return null;
  }
  if (!constantTimeEqual(presented, row.secretHash)) return null;
  if (row.revokedAt !== null || row.deviceRevokedAt !== null || row.expiresAt <= now) return null;

  let expiresAt = row.expiresAt;
  const writes = [];
  if (tokenNeedsRenewal(expiresAt, now)) {
    expiresAt = tokenExpiresAt(now);
    writes.push(db.update(authTokens).set({ expiresAt }).where(eq(authTokens.id, tokenId)));
  }
  if (row.lastSeenAt === null || now - row.lastSeenAt > LAST_SEEN_RESOLUTION_MS) {
    writes.push(db.update(devices).set({ lastSeenAt: now }).where(eq(devices.id, row.deviceId)));
  }
  if (writes.length) await Promise.all(writes);
  return {
    userId: row.userId,
    deviceId: row.deviceId,
    deviceKind: row.deviceKind,
    role: row.role,
    tokenId,
    expiresAt,
  };
}

/** Marks the device and every one of its tokens revoked; returns false if it was not the user's live device. */
export async function revokeDevice(
  db: Db,
  userId: string,
  deviceId: string,
  now = Date.now(),
): Promise<boolean> {
  const updated = await db
    .update(devices)
    .set({ revokedAt: now })
    .where(and(eq(devices.id, deviceId), eq(devices.userId, userId), isNull(devices.revokedAt)))
    .returning({ id: devices.id });
  if (updated.length === 0) return false;
  await db
    .update(authTokens)
    .set({ revokedAt: now })
    .where(and(eq(authTokens.deviceId, deviceId), isNull(authTokens.revokedAt)));
  return true;
}
