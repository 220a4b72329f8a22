// The simulator's bulk seeding (test/edge/scale-seed.ts): the users it makes are real users to the edge (their
// tokens verify, their grant is the one the simulated decisions hit), their history lands in the tables a scan
// would read, and a bad request writes nothing.
import { env } from "cloudflare:workers";
import { eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { base64url, hmacHex, randomBytes } from "../../../src/edge/auth/crypto.ts";
import { verifyToken } from "../../../src/edge/auth/tokens.ts";
import { openDb } from "../../../src/edge/db/client.ts";
import { auditLog, grants, jobs, proposedActions, turns, users } from "../../../src/edge/db/schema.ts";
import { seed } from "../scale-seed.ts";

async function token() {
  const id = base64url(randomBytes(12));
  const secret = base64url(randomBytes(32));
  return {
    token: `alk_${id}.${secret}`,
    wire: { token_id: id, secret_hash: await hmacHex(env.TOKEN_PEPPER, secret) },
  };
}

describe("scale seeding", () => {
  it("makes users whose tokens verify, with their grant and history", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const made = await Promise.all(
      [0, 1].map(async (i) => ({
        id: `usr_seed_${tag}_${i}`,
        phone: await token(),
        companion: await token(),
      })),
    );
    const result = await seed(env.DB, {
      users: made.map((u) => ({ user_id: u.id, phone: u.phone.wire, companion: u.companion.wire })),
      audit: 6,
      proposals: 3,
      jobs: 2,
    });
    expect(result.users).toBe(2);
    const db = openDb(env.DB);
    for (const u of made) {
      const phone = await verifyToken(db, env.TOKEN_PEPPER, u.phone.token);
      expect(phone).toMatchObject({ userId: u.id, role: "approver" });
      const companion = await verifyToken(db, env.TOKEN_PEPPER, u.companion.token);
      expect(companion).toMatchObject({ userId: u.id, role: "companion" });
      expect(await db.select().from(grants).where(eq(grants.userId, u.id))).toHaveLength(1);
      expect(await db.select().from(auditLog).where(eq(auditLog.userId, u.id))).toHaveLength(6);
      expect(await db.select().from(proposedActions).where(eq(proposedActions.userId, u.id))).toHaveLength(3);
      expect(await db.select().from(jobs).where(eq(jobs.userId, u.id))).toHaveLength(2);
      const turnRows = await db.select().from(turns).where(eq(turns.userId, u.id));
      expect(turnRows.map((t) => t.state)).toEqual(["succeeded", "succeeded"]);
      // Spread over the last 90 days, none in the future.
      for (const t of turnRows) expect(t.createdAt).toBeLessThanOrEqual(Date.now());
    }
  });

  it("refuses a malformed request and writes nothing", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    await expect(
      seed(env.DB, {
        users: [{ user_id: `usr_seed_${tag}'; DROP TABLE users; --`, phone: {}, companion: {} }],
        audit: 1,
        proposals: 0,
        jobs: 0,
      }),
    ).rejects.toThrow();
    expect(
      await openDb(env.DB)
        .select()
        .from(users)
        .where(like(users.id, `usr_seed_${tag}%`)),
    ).toEqual([]);
  });
});
