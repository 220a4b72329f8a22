// The operator's ADMIN_BOOTSTRAP_TOKEN: checked in constant time, never stored or logged.
import { forbidden, unauthenticated } from "../errors.ts";
import { presentedToken } from "../middleware/auth.ts";
import { constantTimeEqual } from "./crypto.ts";

export function requireAdmin(env: Env, authorization: string | undefined): void {
  const configured = env.ADMIN_BOOTSTRAP_TOKEN;
  if (!configured || configured.length < 16) {
    throw forbidden("ADMIN_BOOTSTRAP_TOKEN is not configured (at least 16 characters) on this deployment.");
  }
  const presented = presentedToken(authorization);
  if (!presented) throw unauthenticated("Send the ADMIN_BOOTSTRAP_TOKEN as a bearer token.");
  if (!constantTimeEqual(presented, configured)) throw unauthenticated("The bootstrap token is wrong.");
}
