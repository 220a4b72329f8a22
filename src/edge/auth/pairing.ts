// One-time 8-digit pairing codes: issue (hashed), bind to a new device, lock out guessing.
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { BindRequest } from "../../protocol/pairing.ts";
import { writeAudit } from "../audit/audit-log.ts";
import type { Db } from "../db/client.ts";
import { devices, pairingAttempts, pairingCodes } from "../db/schema.ts";
import { ApiError, rateLimited } from "../errors.ts";
import { constantTimeEqual, hmacHex, newId, randomBytes } from "./crypto.ts";
import { type IssuedToken, issueToken } from "./tokens.ts";

export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;

/** Uniform 8 digits: rejection-sample 32-bit values so no digit string is likelier than another. */
function randomCode(): string {
  const limit = 4_200_000_000; // largest multiple of 1e8 below 2^32
  for (;;) {
    const [a, b, c, d] = randomBytes(4) as unknown as [number, number, number, number];
    const n = ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
    if (n < limit) return String(n % 100_000_000).padStart(8, "0");
  }
}

const codeHash = (pepper: string, code: string) => hmacHex(pepper, `pairing:${code}`);

export async function createPairingCode(
  db: Db,
  pepper: string,
  userId: string,
  now = Date.now(),
): Promise<{ code: string; expiresAt: number }> {
  const code = randomCode();
  const expiresAt = now + CODE_TTL_MS;
  await db.insert(pairingCodes).values({
    id: newId("pc"),
    userId,
    codeHash: await codeHash(pepper, code),
    createdAt: now,
    expiresAt,
  });
  return { code, expiresAt };
}

export interface BindResult extends IssuedToken {
  deviceId: string;
  userId: string;
}

async function clientFailures(db: Db, clientHash: string, now: number) {
  const row = (await db.select().from(pairingAttempts).where(eq(pairingAttempts.clientHash, clientHash)))[0];
  if (!row || now - row.windowStart > LOCKOUT_WINDOW_MS) return { failures: 0, windowStart: now };
  return row;
}

export async function bindPairingCode(
  db: Db,
  pepper: string,
  request: BindRequest,
  clientAddress: string,
  now = Date.now(),
): Promise<BindResult> {
  const clientHash = await hmacHex(pepper, `client:${clientAddress}`);
  const client = await clientFailures(db, clientHash, now);
  if (client.failures >= MAX_FAILURES) {
    const retryAfter = (client.windowStart + LOCKOUT_WINDOW_MS - now) / 1000;
    throw rateLimited(
      retryAfter,
      "Too many wrong pairing codes from this client. Wait, then ask for a new code.",
    );
  }

  const presented = await codeHash(pepper, request.code);
  const live = await db
    .select()
    .from(pairingCodes)
    .where(and(isNull(pairingCodes.usedAt), gt(pairingCodes.expiresAt, now)));
  // Compare against every live code so timing does not reveal which (if any) matched.
  let match: (typeof live)[number] | undefined;
  for (const row of live) if (constantTimeEqual(presented, row.codeHash) && !match) match = row;

  if (!match) {
    const failures = client.failures + 1;
    await db
      .insert(pairingAttempts)
      .values({ clientHash, failures, windowStart: client.windowStart })
      .onConflictDoUpdate({
        target: pairingAttempts.clientHash,
        set: { failures, windowStart: client.windowStart },
      });
    if (live.length) {
      await db
        .update(pairingCodes)
        .set({ failedAttempts: sql`${pairingCodes.failedAttempts} + 1` })
        .where(and(isNull(pairingCodes.usedAt), gt(pairingCodes.expiresAt, now)));
    }
    await writeAudit(db, {
      userId: null,
      actor: "anonymous",
      event: "auth.pairing_failed",
      details: { kind: request.kind, client_failures: failures },
      at: now,
    });
    throw new ApiError(401, "unauthenticated", "That pairing code is wrong, expired or already used.");
  }
  if (match.failedAttempts >= MAX_FAILURES) {
    await writeAudit(db, {
      userId: match.userId,
      actor: "anonymous",
      event: "auth.pairing_locked",
      target: match.id,
      at: now,
    });
    throw rateLimited(
      (match.expiresAt - now) / 1000,
      "This pairing code saw too many wrong guesses and is locked. Create a new code.",
    );
  }

  // Single use even under a race: only the request that flips used_at from NULL proceeds.
  const claimed = await db
    .update(pairingCodes)
    .set({ usedAt: now })
    .where(and(eq(pairingCodes.id, match.id), isNull(pairingCodes.usedAt)))
    .returning({ id: pairingCodes.id });
  if (claimed.length === 0) throw new ApiError(401, "unauthenticated", "That pairing code was already used.");

  const deviceId = newId("dev");
  await db.insert(devices).values({
    id: deviceId,
    userId: match.userId,
    name: request.device_name,
    kind: request.kind,
    createdAt: now,
  });
  const issued = await issueToken(db, pepper, match.userId, deviceId, now);
  await writeAudit(db, {
    userId: match.userId,
    deviceId,
    actor: `device:${deviceId}`,
    event: "auth.device_paired",
    target: deviceId,
    details: { kind: request.kind, device_name: request.device_name, token_id: issued.tokenId },
    at: now,
  });
  return { ...issued, deviceId, userId: match.userId };
}
