// One-time 8-digit pairing codes that carry a role: issue (hashed), bind to a new device, lock out guessing.
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { type BindRequest, ROLE_OF_KIND } from "../../protocol/pairing.ts";
import type { DeviceRole } from "../../protocol/roles.ts";
import { auditRow, writeAudit } from "../audit/audit-log.ts";
import type { Db } from "../db/client.ts";
import { auditLog, devices, pairingAttempts, pairingCodes } from "../db/schema.ts";
import { ApiError, rateLimited } from "../errors.ts";
import { constantTimeEqual, hmacHex, newId, randomBytes } from "./crypto.ts";
import { type IssuedToken, issueToken } from "./tokens.ts";

export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;
/**
 * A wrong guess lands in one of this many buckets (by its HMAC, which a guesser cannot predict) and
 * counts only against the live code in that bucket. A code therefore locks after MAX_FAILURES guesses
 * that could have been it, and spraying guesses locks one code per ~BUCKETS × MAX_FAILURES tries
 * instead of every code after five.
 */
export const BUCKETS = 100;

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
const bucketOf = (hash: string) => Number.parseInt(hash.slice(0, 8), 16) % BUCKETS;

/** The bucket a code (or a guess) lands in; exported for the lockout tests. */
export async function bucketOfCode(pepper: string, code: string): Promise<number> {
  return bucketOf(await codeHash(pepper, code));
}

const live = (now: number) => and(isNull(pairingCodes.usedAt), gt(pairingCodes.expiresAt, now));

export async function createPairingCode(
  db: Db,
  pepper: string,
  userId: string,
  role: DeviceRole,
  now = Date.now(),
): Promise<{ code: string; role: DeviceRole; expiresAt: number }> {
  // Re-roll until the code owns a bucket no other live code has, so a wrong guess blames at most one code.
  // The claim is one conditional INSERT (SQLite runs each statement alone), so two codes minted at the same
  // moment can never share a bucket, as a read-then-insert could.
  for (let attempt = 0; attempt < 64; attempt++) {
    const code = randomCode();
    const hash = await codeHash(pepper, code);
    const bucket = bucketOf(hash);
    const expiresAt = now + CODE_TTL_MS;
    const claimed = await db.run(sql`
      INSERT INTO pairing_codes (id, user_id, code_hash, role, bucket, created_at, expires_at)
      SELECT ${newId("pc")}, ${userId}, ${hash}, ${role}, ${bucket}, ${now}, ${expiresAt}
      WHERE NOT EXISTS (
        SELECT 1 FROM pairing_codes WHERE bucket = ${bucket} AND used_at IS NULL AND expires_at > ${now}
      )`);
    if (claimed.meta.changes === 1) return { code, role, expiresAt };
  }
  throw new ApiError(
    429,
    "rate_limited",
    "Too many pairing codes are live; use one or wait until they expire.",
    {
      headers: { "Retry-After": String(CODE_TTL_MS / 1000) },
    },
  );
}

export interface BindResult extends IssuedToken {
  deviceId: string;
  userId: string;
  role: DeviceRole;
}

async function clientFailures(db: Db, clientHash: string, now: number) {
  const row = (await db.select().from(pairingAttempts).where(eq(pairingAttempts.clientHash, clientHash)))[0];
  if (!row || now - row.windowStart > LOCKOUT_WINDOW_MS) return { failures: 0, windowStart: now };
  return row;
}

/**
 * Wrong codes are audited as one row per client and lockout window, however many it sends: the first wrong
 * code inserts the row (attributed to the person whose live code it could have been, if any), each next one
 * updates its counts in the same statement. What the person needs stays: how many wrong codes, which of
 * their codes were blamed, whether the client got locked, when it started and when it last tried.
 */
async function auditFailure(
  db: Db,
  f: {
    clientHash: string;
    windowStart: number;
    failures: number;
    blamed: { id: string; userId: string } | null;
    kind: string;
    now: number;
  },
): Promise<void> {
  const row = {
    ...auditRow({
      userId: f.blamed?.userId ?? null,
      actor: "anonymous",
      event: "auth.pairing_failed",
      target: f.blamed?.id ?? null,
      details: {
        kind: f.kind,
        client_failures: f.failures,
        codes_blamed: f.blamed ? [f.blamed.id] : [],
        locked: f.failures >= MAX_FAILURES,
        window_start: new Date(f.windowStart).toISOString(),
        last_at: new Date(f.now).toISOString(),
      },
      at: f.now,
    }),
    // The HMAC of the client (never its address) and the window name the row, so the next wrong code finds it.
    id: `aud_pf_${f.clientHash.slice(0, 24)}_${f.windowStart}`,
  };
  const blamedId = f.blamed?.id ?? null;
  await auditOnce(db, row, {
    userId: sql`coalesce(${auditLog.userId}, excluded.user_id)`,
    target: sql`coalesce(${auditLog.target}, excluded.target)`,
    details: sql`json_set(
      CASE WHEN ${blamedId} IS NULL THEN ${auditLog.details}
           ELSE json_insert(${auditLog.details}, '$.codes_blamed[#]', ${blamedId}) END,
      '$.client_failures', ${f.failures},
      '$.locked', json(${f.failures >= MAX_FAILURES ? "true" : "false"}),
      '$.last_at', ${new Date(f.now).toISOString()})`,
  });
}

/**
 * Writes the row, or, when its id is already there, updates that row in place: repeated guesses count up on one
 * entry instead of growing the log by one row each.
 */
async function auditOnce(
  db: Db,
  row: typeof auditLog.$inferInsert,
  set: SQLiteUpdateSetSource<typeof auditLog>,
) {
  await db.insert(auditLog).values(row).onConflictDoUpdate({ target: auditLog.id, set });
}

/** The right code presented for a code locked by guesses: one row per code, counting the attempts. */
async function auditLocked(db: Db, codeId: string, userId: string, now: number): Promise<void> {
  const row = {
    ...auditRow({
      userId,
      actor: "anonymous",
      event: "auth.pairing_locked",
      target: codeId,
      details: { attempts: 1, last_at: new Date(now).toISOString() },
      at: now,
    }),
    id: `aud_pl_${codeId}`,
  };
  await auditOnce(db, row, {
    details: sql`json_set(${auditLog.details},
      '$.attempts', json_extract(${auditLog.details}, '$.attempts') + 1,
      '$.last_at', ${new Date(now).toISOString()})`,
  });
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
  const rows = await db.select().from(pairingCodes).where(live(now));
  // Compare against every live code so timing does not reveal which (if any) matched.
  let match: (typeof rows)[number] | undefined;
  for (const row of rows) if (constantTimeEqual(presented, row.codeHash) && !match) match = row;

  if (!match) {
    const failures = client.failures + 1;
    await db
      .insert(pairingAttempts)
      .values({ clientHash, failures, windowStart: client.windowStart })
      .onConflictDoUpdate({
        target: pairingAttempts.clientHash,
        set: { failures, windowStart: client.windowStart },
      });
    // The guess counts against the one live code it could have been, if any (see BUCKETS).
    const blamed = rows.find((row) => row.bucket === bucketOf(presented));
    if (blamed) {
      await db
        .update(pairingCodes)
        .set({ failedAttempts: sql`${pairingCodes.failedAttempts} + 1` })
        .where(eq(pairingCodes.id, blamed.id));
    }
    await auditFailure(db, {
      clientHash,
      windowStart: client.windowStart,
      failures,
      blamed: blamed ? { id: blamed.id, userId: blamed.userId } : null,
      kind: request.kind,
      now,
    });
    throw new ApiError(401, "unauthenticated", "That pairing code is wrong, expired or already used.");
  }
  if (match.failedAttempts >= MAX_FAILURES) {
    await auditLocked(db, match.id, match.userId, now);
    throw rateLimited(
      (match.expiresAt - now) / 1000,
      "This pairing code saw too many wrong guesses and is locked. Create a new code.",
    );
  }
  if (ROLE_OF_KIND[request.kind] !== match.role) {
    // Checked before the code is used up, so the person can still open it on the right device.
    throw new ApiError(
      409,
      "conflict",
      match.role === "approver"
        ? "This code pairs an approver: open it on your phone or browser (/pair?code=…). For this machine, mint a companion code there."
        : "This code pairs a companion (the airlock CLI: airlock pair <code>). To pair a phone or browser, mint an approver code on a paired phone or with the recovery code.",
      { details: { code_role: match.role, kind: request.kind } },
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
    role: match.role,
    createdAt: now,
  });
  const issued = await issueToken(db, pepper, match.userId, deviceId, now);
  await writeAudit(db, {
    userId: match.userId,
    deviceId,
    actor: `device:${deviceId}`,
    event: "auth.device_paired",
    target: deviceId,
    details: {
      kind: request.kind,
      role: match.role,
      device_name: request.device_name,
      token_id: issued.tokenId,
    },
    at: now,
  });
  return { ...issued, deviceId, userId: match.userId, role: match.role };
}
