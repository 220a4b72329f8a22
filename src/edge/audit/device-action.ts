// Audits what the signed-in device did through the API (a hook, schedule or target it managed).
import type { Context } from "hono";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../env.ts";
import { writeAudit } from "./audit-log.ts";

/**
 * One entry for the request's own device, written once here so every route names the same actor
 * (`device:<id>`) and owner for what a person changed.
 */
export function auditDeviceAction(
  c: Context<AppEnv>,
  event: string,
  target: string,
  details?: Record<string, unknown>,
): Promise<void> {
  const auth = c.get("auth");
  return writeAudit(openDb(c.env.DB), {
    userId: auth.userId,
    deviceId: auth.deviceId,
    actor: `device:${auth.deviceId}`,
    event,
    target,
    ...(details ? { details } : {}),
  });
}
