// Guessing the recovery code: each client is locked out after RECOVERY_MAX_FAILURES wrong codes in a
// window, and the audit stays bounded however many guesses come: wrong codes are counted per window and
// written as one aggregated row when the count reaches 1, 10, 100, … (and when 1, 10, … clients were
// locked), attributed to the account owners, who can read them in their audit. 500 wrong codes write
// three rows, not 500 rows no one can see.
//
// Counts live in pairing_attempts (keyed by an HMAC the pairing lockout's keys can never equal).
import { eq, sql } from "drizzle-orm";
import type { AuditEntry } from "../audit/audit-log.ts";
import { writeAuditBatch } from "../audit/audit-log.ts";
import type { Db } from "../db/client.ts";
import { pairingAttempts, users } from "../db/schema.ts";
import { ApiError, rateLimited } from "../errors.ts";
import { clientAddress } from "./client-address.ts";
import { hmacHex } from "./crypto.ts";
import { LOCKOUT_WINDOW_MS } from "./pairing.ts";
import { userOfRecoveryCode } from "./recovery.ts";

/** Wrong recovery codes one client may send per window (15 minutes) before it is locked out. */
export const RECOVERY_MAX_FAILURES = 10;

interface Counter {
  key: string;
  failures: number;
  windowStart: number;
}

async function read(db: Db, key: string, now: number): Promise<Counter> {
  const row = (await db.select().from(pairingAttempts).where(eq(pairingAttempts.clientHash, key)))[0];
  if (!row || now - row.windowStart > LOCKOUT_WINDOW_MS) return { key, failures: 0, windowStart: now };
  return { key, failures: row.failures, windowStart: row.windowStart };
}

/** Adds one in a single statement (concurrent guesses never lose a count); returns the new count. */
async function bump(db: Db, counter: Counter, now: number): Promise<number> {
  const fresh = counter.failures === 0;
  const rows = await db
    .insert(pairingAttempts)
    .values({ clientHash: counter.key, failures: 1, windowStart: counter.windowStart })
    .onConflictDoUpdate({
      target: pairingAttempts.clientHash,
      set: fresh ? { failures: 1, windowStart: now } : { failures: sql`${pairingAttempts.failures} + 1` },
    })
    .returning({ failures: pairingAttempts.failures });
  return rows[0]?.failures ?? counter.failures + 1;
}

const isPowerOfTen = (n: number) => n >= 1 && 10 ** Math.round(Math.log10(n)) === n;

export class RecoveryGuard {
  private readonly db: Db;
  private readonly pepper: string;

  constructor(db: Db, pepper: string) {
    this.db = db;
    this.pepper = pepper;
  }

  private keyOf(what: string): Promise<string> {
    return hmacHex(this.pepper, `recovery-guard:${what}`);
  }

  /** Throws 429 while this client is locked out; call before the code is even compared. */
  async admit(client: string, now = Date.now()): Promise<void> {
    const counter = await read(this.db, await this.keyOf(`client:${client}`), now);
    if (counter.failures >= RECOVERY_MAX_FAILURES) {
      // Still counted (the owner sees how hard someone tries), never a row of its own.
      await this.count(now, false);
      throw rateLimited(
        (counter.windowStart + LOCKOUT_WINDOW_MS - now) / 1000,
        "Too many wrong recovery codes from this client. Wait, then try again.",
      );
    }
  }

  /** A wrong code from `client`: counted, and audited only at the aggregation points. */
  async failed(client: string, now = Date.now()): Promise<void> {
    const clientCounter = await read(this.db, await this.keyOf(`client:${client}`), now);
    const clientFailures = await bump(this.db, clientCounter, now);
    await this.count(now, clientFailures === RECOVERY_MAX_FAILURES);
  }

  private async count(now: number, lockedNow: boolean): Promise<void> {
    const window = await read(this.db, await this.keyOf("window"), now);
    const failures = await bump(this.db, window, now);
    let locked: number | undefined;
    if (lockedNow) {
      const lockCounter = await read(this.db, await this.keyOf("locked"), now);
      locked = await bump(this.db, lockCounter, now);
    }
    const events: { event: string; details: Record<string, unknown> }[] = [];
    const windowStart = new Date(failures === 1 ? now : window.windowStart).toISOString();
    if (isPowerOfTen(failures))
      events.push({
        event: "auth.recovery_failed",
        details: { failures_in_window: failures, window_start: windowStart },
      });
    if (locked !== undefined && isPowerOfTen(locked))
      events.push({
        event: "auth.recovery_locked",
        details: {
          clients_locked_in_window: locked,
          max_failures: RECOVERY_MAX_FAILURES,
          window_start: windowStart,
        },
      });
    if (events.length === 0) return;
    const owners = await this.db.select({ id: users.id }).from(users).where(eq(users.role, "owner"));
    const to = owners.length > 0 ? owners.map((o) => o.id) : [null];
    const entries: AuditEntry[] = to.flatMap((userId) =>
      events.map((e) => ({ userId, actor: "anonymous", event: e.event, details: e.details, at: now })),
    );
    await writeAuditBatch(this.db, entries);
  }
}

/**
 * The account a presented recovery code belongs to, behind the lockout: a locked-out client is refused (429), a
 * wrong code counts against its client and is a 401. Every route that takes the recovery code goes through here,
 * so a guesser cannot switch routes to reset the count.
 */
export async function recoveryCodeUser(
  env: Pick<Env, "AIRLOCK_TRUST_CF_CONNECTING_IP" | "TOKEN_PEPPER">,
  db: Db,
  headers: Headers,
  code: string,
): Promise<string> {
  const guard = new RecoveryGuard(db, env.TOKEN_PEPPER);
  const client = clientAddress(env, headers);
  await guard.admit(client);
  const userId = await userOfRecoveryCode(db, env.TOKEN_PEPPER, code);
  if (userId) return userId;
  await guard.failed(client);
  throw new ApiError(401, "unauthenticated", "That recovery code is wrong.");
}
