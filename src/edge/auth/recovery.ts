// The recovery code: 120 random bits shown once (first run, or rotation), stored as an HMAC. It mints
// pairing codes of any role, so the person can pair an approver when no approver device is at hand.
//
// It is never locked: guessing 120 bits online is hopeless, while a lock would let anyone (an agent on
// the same network included) shut the person out of recovery with five wrong guesses. Failures are audited.
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { constantTimeEqual, hmacHex, randomBytes } from "./crypto.ts";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"; // Crockford base32: no I, L, O, U

/** 24 characters of 5 bits each, in groups of four for reading aloud. */
export function newRecoveryCode(): string {
  const bytes = randomBytes(24);
  const chars = Array.from(bytes, (b) => ALPHABET[b & 31]);
  return chars.join("").replace(/(.{4})(?=.)/g, "$1-");
}

const recoveryHash = (pepper: string, normalized: string) => hmacHex(pepper, `recovery:${normalized}`);
const normalize = (code: string) => code.toUpperCase().replace(/[\s-]/g, "");

/** Sets a new recovery code for the user (the old one stops working) and returns it, once. */
export async function rotateRecoveryCode(db: Db, pepper: string, userId: string, now = Date.now()) {
  const code = newRecoveryCode();
  await db
    .update(users)
    .set({ recoveryHash: await recoveryHash(pepper, normalize(code)), recoveryCreatedAt: now })
    .where(eq(users.id, userId));
  return code;
}

/** The user whose recovery code this is, or null. Compared in constant time against every user's. */
export async function userOfRecoveryCode(db: Db, pepper: string, code: string): Promise<string | null> {
  const presented = await recoveryHash(pepper, normalize(code));
  const rows = await db
    .select({ id: users.id, hash: users.recoveryHash })
    .from(users)
    .where(isNotNull(users.recoveryHash));
  let owner: string | null = null;
  for (const row of rows) if (row.hash && constantTimeEqual(presented, row.hash) && !owner) owner = row.id;
  return owner;
}

/**
 * Uses the recovery code up: replaces it with a new one only while `presented` is still the current code, in one
 * statement, so a code works once even when two requests race. Returns the new code (shown once), or null when
 * `presented` is not (or no longer) the user's code.
 */
export async function consumeRecoveryCode(
  db: Db,
  pepper: string,
  userId: string,
  presented: string,
  now = Date.now(),
): Promise<string | null> {
  const code = newRecoveryCode();
  const replaced = await db
    .update(users)
    .set({ recoveryHash: await recoveryHash(pepper, normalize(code)), recoveryCreatedAt: now })
    .where(
      and(eq(users.id, userId), eq(users.recoveryHash, await recoveryHash(pepper, normalize(presented)))),
    )
    .returning({ id: users.id });
  return replaced.length > 0 ? code : null;
}
