// The operator's routes behind ADMIN_BOOTSTRAP_TOKEN: create the owner once, companion codes, recovery reset.
import { eq, sql } from "drizzle-orm";
import {
  AdminPairingCode,
  BootstrapRequest,
  BootstrapResponse,
  RecoveryCode,
} from "../../protocol/pairing.ts";
import { writeAudit } from "../audit/audit-log.ts";
import { newId } from "../auth/crypto.ts";
import { createPairingCode } from "../auth/pairing.ts";
import { rotateRecoveryCode } from "../auth/recovery.ts";
import { openDb } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { conflict, notFound } from "../errors.ts";
import { apiRoute, json, problem, routeGroup } from "./define.ts";

const iso = (ms: number) => new Date(ms).toISOString();

async function owner(db: ReturnType<typeof openDb>) {
  const row = (await db.select().from(users).where(eq(users.role, "owner")).limit(1))[0];
  if (!row) throw notFound("No owner yet: call POST /v1/bootstrap first.");
  return row;
}

export const bootstrapRoutes = routeGroup()
  .openapi(
    apiRoute("admin", {
      method: "post",
      path: "/v1/bootstrap",
      summary: "Create the owner (once): the first approver code and the recovery code",
      request: { body: { content: { "application/json": { schema: BootstrapRequest } } } },
      responses: {
        201: json(
          "The owner, an approver pairing code and the recovery code (shown only here).",
          BootstrapResponse,
        ),
        409: problem("The owner already exists."),
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
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
          "The owner already exists. Pair new devices from a paired phone, or with the recovery code.",
        );
      }
      const recovery = await rotateRecoveryCode(db, c.env.TOKEN_PEPPER, userId, now);
      const { code, role, expiresAt } = await createPairingCode(
        db,
        c.env.TOKEN_PEPPER,
        userId,
        "approver",
        now,
      );
      await writeAudit(db, { userId, actor: "admin", event: "auth.owner_bootstrapped", target: userId });
      return c.json(
        { user_id: userId, code, role, expires_at: iso(expiresAt), recovery_code: recovery },
        201,
      );
    },
  )
  .openapi(
    apiRoute("admin", {
      method: "post",
      path: "/v1/admin/pairing-code",
      summary: "A companion pairing code for the owner",
      description:
        "Only companion codes: the admin token often sits in a file on the dev machine, where the agent can read it, so it never mints approver codes.",
      responses: { 201: json("A companion code.", AdminPairingCode) },
    }),
    async (c) => {
      const db = openDb(c.env.DB);
      const { id } = await owner(db);
      const { code, role, expiresAt } = await createPairingCode(db, c.env.TOKEN_PEPPER, id, "companion");
      await writeAudit(db, {
        userId: id,
        actor: "admin",
        event: "auth.pairing_code_created",
        details: { role },
      });
      return c.json({ user_id: id, code, role, expires_at: iso(expiresAt) }, 201);
    },
  )
  .openapi(
    apiRoute("admin", {
      method: "post",
      path: "/v1/admin/recovery-code",
      summary: "Replace the owner's recovery code (the operator's way back in)",
      responses: { 201: json("The new recovery code; the old one stops working.", RecoveryCode) },
    }),
    async (c) => {
      const db = openDb(c.env.DB);
      const { id } = await owner(db);
      const recovery = await rotateRecoveryCode(db, c.env.TOKEN_PEPPER, id);
      await writeAudit(db, { userId: id, actor: "admin", event: "auth.recovery_rotated" });
      return c.json({ recovery_code: recovery }, 201);
    },
  );
