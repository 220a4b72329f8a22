// The user's devices: list, and revoke (kills every token and open socket of that device at once).
import { desc, eq } from "drizzle-orm";
import { DeviceList, DeviceRevoked } from "../../protocol/pairing.ts";
import { DeviceParams } from "../../protocol/rest.ts";
import { writeAudit } from "../audit/audit-log.ts";
import { revokeDevice } from "../auth/tokens.ts";
import { openDb } from "../db/client.ts";
import { devices } from "../db/schema.ts";
import { notFound } from "../errors.ts";
import { userHub } from "../hub/stub.ts";
import { apiRoute, json, problem, routeGroup } from "./define.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const deviceRoutes = routeGroup()
  .openapi(
    apiRoute("read_devices", {
      method: "get",
      path: "/v1/devices",
      summary: "The account's devices, newest first",
      responses: { 200: json("Devices with kind, role and last use.", DeviceList) },
    }),
    async (c) => {
      const auth = c.get("auth");
      const rows = await openDb(c.env.DB)
        .select()
        .from(devices)
        .where(eq(devices.userId, auth.userId))
        .orderBy(desc(devices.createdAt));
      return c.json(
        {
          devices: rows.map((d) => ({
            id: d.id,
            name: d.name,
            kind: d.kind,
            role: d.role,
            created_at: iso(d.createdAt) ?? "",
            last_seen_at: iso(d.lastSeenAt),
            revoked_at: iso(d.revokedAt),
            current: d.id === auth.deviceId,
          })),
        },
        200,
      );
    },
  )
  .openapi(
    apiRoute(
      "manage_devices",
      {
        method: "post",
        path: "/v1/devices/{id}/revoke",
        summary: "Revoke a device: its tokens stop working and its sockets close (4001) at once",
        request: { params: DeviceParams },
        responses: { 200: json("Revoked.", DeviceRevoked), 404: problem("No live device with that id.") },
      },
      { stepUp: true },
    ),
    async (c) => {
      const auth = c.get("auth");
      const { id } = c.req.valid("param");
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
      return c.json({ id, revoked: true as const }, 200);
    },
  );
