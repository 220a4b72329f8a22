// The recovery code: 120 random bits shown once (first run, or rotation), stored as an HMAC. It mints
// pairing codes of any role, so the person can pair an approver when no approver device is at hand.
//
// It is never locked: guessing 120 bits online is hopeless, while a lock would let anyone (an agent on
// the same network included) shut the person out of recovery with five wrong guesses. Failures are audited.
import { eq, isNotNull } from "drizzle-orm";
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
