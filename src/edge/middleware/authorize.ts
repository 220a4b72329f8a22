// Role checks: a route names the action it performs, and only roles the authority table allows get through.
import type { Context, MiddlewareHandler } from "hono";
import { type Action, AUTHORITY, mayAct, parityTokenMay, roleRefusal } from "../../protocol/roles.ts";
import { writeAudit } from "../audit/audit-log.ts";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";

/**
 * Throws 403 (audited as `auth.role_refused`) unless the caller's device role may take `action`.
 * A refusal is worth recording: it is what an agent holding the companion's token looks like when it
 * tries to act as the person.
 */
export async function assertMay(c: Context<AppEnv>, action: Action): Promise<void> {
  const auth = c.get("auth");
  if (auth.readOnly && !parityTokenMay(action)) {
    await writeAudit(openDb(c.env.DB), {
      userId: auth.userId,
      deviceId: null,
      actor: `parity-token:${auth.deviceId}`,
      event: "auth.read_only_refused",
      target: `${c.req.method} ${c.req.routePath}`,
      details: { action, via: "parity_token" },
    });
    throw new ApiError(
      403,
      "read_only_token",
      `A parity token is read-only: it may not ${action.replaceAll("_", " ")}. Use an approver device for that.`,
      { details: { action } },
    );
  }
  if (mayAct(auth.role, action)) return;
  await writeAudit(openDb(c.env.DB), {
    userId: auth.userId,
    deviceId: auth.deviceId,
    actor: `device:${auth.deviceId}`,
    event: "auth.role_refused",
    target: `${c.req.method} ${c.req.routePath}`,
    details: { action, role: auth.role, required_role: AUTHORITY[action], via: "rest" },
  });
  throw new ApiError(403, "forbidden", roleRefusal(auth.role, action), {
    details: { action, role: auth.role, required_role: AUTHORITY[action] },
  });
}

/** Middleware form of `assertMay`, after `authenticate()`. */
export function authorize(action: Action): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await assertMay(c, action);
    await next();
  };
}
