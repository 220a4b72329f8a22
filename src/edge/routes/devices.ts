// The user's devices: list, and revoke (kills every token and open socket of that device at once).
import { desc, eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { writeAudit } from "../audit/audit-log.ts";
import { revokeDevice } from "../auth/tokens.ts";
import { openDb } from "../db/client.ts";
import { devices } from "../db/schema.ts";
import type { AppEnv } from "../env.ts";
import { notFound } from "../errors.ts";
import { userHub } from "../hub/stub.ts";
import { authenticate } from "../middleware/auth.ts";
import { readParams } from "../middleware/validate.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const DeviceParams = z.object({
  id: z.string().regex(/^dev_[A-Za-z0-9_-]{16}$/, "must be a device id (dev_…)"),
});

export const deviceRoutes = new Hono<AppEnv>()
  .get("/v1/devices", authenticate(), async (c) => {
    const auth = c.get("auth");
    const rows = await openDb(c.env.DB)
      .select()
      .from(devices)
      .where(eq(devices.userId, auth.userId))
      .orderBy(desc(devices.createdAt));
    return c.json({
      devices: rows.map((d) => ({
        id: d.id,
        name: d.name,
        kind: d.kind,
        created_at: iso(d.createdAt),
        last_seen_at: iso(d.lastSeenAt),
        revoked_at: iso(d.revokedAt),
        current: d.id === auth.deviceId,
      })),
    });
  })
  .post("/v1/devices/:id/revoke", authenticate(), async (c) => {
    const auth = c.get("auth");
    const { id } = readParams(c, DeviceParams);
    const db = openDb(c.env.DB);
    if (!(await revokeDevice(db, auth.userId, id))) throw notFound(`No live device ${id} on this account.`);
    await userHub(c.env, auth.userId).closeDevice(id, "device revoked");
    await writeAudit(db, {
      userId: auth.userId,
      deviceId: auth.deviceId,
      actor: `device:${auth.deviceId}`,
      event: "auth.device_revoked",
      target: id,
    });
    return c.json({ id, revoked: true });
  });
