// Passkey step-up: once a user has registered a passkey, guarded actions (high-risk confirmation, policy edits,
// turning an emergency switch off, device revocation, removing a passkey) need a fresh WebAuthn assertion. A
// verified assertion yields a short-lived, single-use token bound to the device; the guarded request carries it in
// X-Airlock-Step-Up. Without any passkey registered the guard lets the request through (nothing to step up with).
import { and, eq, isNull } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { writeAudit } from "../audit/audit-log.ts";
import type { Db } from "../db/client.ts";
import { openDb } from "../db/client.ts";
import { passkeys, stepUps } from "../db/schema.ts";
import type { AppEnv, AuthContext } from "../env.ts";
import { ApiError } from "../errors.ts";
import { base64url, randomBytes, sha256Hex } from "./crypto.ts";

export const STEP_UP_HEADER = "x-airlock-step-up";
/** A step-up is "fresh" for this long after the assertion, and good for one guarded request. */
export const STEP_UP_TTL_MS = 2 * 60 * 1000;

export async function hasPasskey(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .limit(1);
  return rows.length > 0;
}

export async function issueStepUp(db: Db, auth: Pick<AuthContext, "userId" | "deviceId">, now = Date.now()) {
  const token = `stp_${base64url(randomBytes(24))}`;
  const expiresAt = now + STEP_UP_TTL_MS;
  await db.insert(stepUps).values({
    tokenHash: await sha256Hex(token),
    userId: auth.userId,
    deviceId: auth.deviceId,
    expiresAt,
  });
  return { token, expiresAt };
}

/**
 * Issues a step-up and records it as one `auth.step_up` audit row, whatever bought it (a passkey assertion names the
 * passkey as `target`; the recovery code says so in `details`). Answers the wire pair both routes return.
 */
export async function grantStepUp(
  db: Db,
  auth: Pick<AuthContext, "userId" | "deviceId">,
  proof: { target?: string; details?: Record<string, unknown> },
): Promise<{ token: string; expires_at: string }> {
  const issued = await issueStepUp(db, auth);
  await writeAudit(db, {
    userId: auth.userId,
    deviceId: auth.deviceId,
    actor: `device:${auth.deviceId}`,
    event: "auth.step_up",
    ...proof,
  });
  return { token: issued.token, expires_at: new Date(issued.expiresAt).toISOString() };
}

/** Consumes a step-up token: valid only for the device it was issued to, once, before it expires. */
export async function consumeStepUp(
  db: Db,
  auth: Pick<AuthContext, "userId" | "deviceId">,
  token: string | undefined,
  now = Date.now(),
): Promise<boolean> {
  if (!token || !/^stp_[A-Za-z0-9_-]{32}$/.test(token)) return false;
  const used = await db
    .update(stepUps)
    .set({ usedAt: now })
    .where(
      and(
        eq(stepUps.tokenHash, await sha256Hex(token)),
        eq(stepUps.userId, auth.userId),
        eq(stepUps.deviceId, auth.deviceId),
        isNull(stepUps.usedAt),
      ),
    )
    .returning({ expiresAt: stepUps.expiresAt });
  const row = used[0];
  return row !== undefined && row.expiresAt > now;
}

export const stepUpRequired = () =>
  new ApiError(
    403,
    "step_up_required",
    "This action needs a fresh passkey check: POST /v1/passkeys/step-up/options, sign, POST /v1/passkeys/step-up, then retry with its token in X-Airlock-Step-Up.",
  );

export type StepUpApplies = (c: Context<AppEnv>) => boolean | Promise<boolean>;

/**
 * Guard for a route (after `authenticate()`): when the user has a passkey, the request must carry a fresh step-up
 * token. `applies(c)` narrows the guard to the requests that lower protection (e.g. an emergency switch turned off).
 */
export function requireStepUp(applies: StepUpApplies = () => true): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (await applies(c)) {
      const db = openDb(c.env.DB);
      const auth = c.get("auth");
      if (
        (await hasPasskey(db, auth.userId)) &&
        !(await consumeStepUp(db, auth, c.req.header(STEP_UP_HEADER)))
      ) {
        throw stepUpRequired();
      }
    }
    await next();
  };
}
