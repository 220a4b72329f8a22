// Owner bootstrap (exactly once) and the operator's recovery pairing code, both behind ADMIN_BOOTSTRAP_TOKEN.
import { eq, sql } from "drizzle-orm";
import { Hono } from "hono";
import { BootstrapRequest } from "../../protocol/pairing.ts";
import { writeAudit } from "../audit/audit-log.ts";
import { requireAdmin } from "../auth/admin.ts";
import { newId } from "../auth/crypto.ts";
import { createPairingCode } from "../auth/pairing.ts";
import { openDb } from "../db/client.ts";
import { users } from "../db/schema.ts";
import type { AppEnv } from "../env.ts";
import { conflict, notFound } from "../errors.ts";
import { readJson } from "../middleware/validate.ts";

export const bootstrapRoutes = new Hono<AppEnv>()
  .post("/v1/bootstrap", async (c) => {
    requireAdmin(c.env, c.req.header("authorization"));
    const body = await readJson(c, BootstrapRequest);
    const db = openDb(c.env.DB);
    const userId = newId("usr");
    const now = Date.now();
    // Insert only if no owner exists, in one statement, so two racing calls cannot both create one.
    const result = await db.run(
      sql`INSERT INTO users (id, name, role, created_at) SELECT ${userId}, ${body.owner_name ?? "Owner"}, 'owner', ${now}
          WHERE NOT EXISTS (SELECT 1 FROM users WHERE role = 'owner')`,
    );
    if (result.meta.changes !== 1) {
      await writeAudit(db, { userId: null, actor: "admin", event: "auth.bootstrap_refused" });
      throw conflict(
        "The owner already exists. Pair new devices from a paired one, or use /v1/admin/pairing-code.",
      );
    }
    const { code, expiresAt } = await createPairingCode(db, c.env.TOKEN_PEPPER, userId, now);
    await writeAudit(db, { userId, actor: "admin", event: "auth.owner_bootstrapped", target: userId });
    return c.json({ user_id: userId, code, expires_at: new Date(expiresAt).toISOString() }, 201);
  })
  .post("/v1/admin/pairing-code", async (c) => {
    requireAdmin(c.env, c.req.header("authorization"));
    const db = openDb(c.env.DB);
    const owner = (await db.select().from(users).where(eq(users.role, "owner")).limit(1))[0];
    if (!owner) throw notFound("No owner yet: call POST /v1/bootstrap first.");
    const { code, expiresAt } = await createPairingCode(db, c.env.TOKEN_PEPPER, owner.id);
    await writeAudit(db, { userId: owner.id, actor: "admin", event: "auth.pairing_code_created" });
    return c.json({ user_id: owner.id, code, expires_at: new Date(expiresAt).toISOString() }, 201);
  });
