// How a route calls its user's UserHub: the caller's identity, and hub failures turned into ApiErrors.
import type { AuthContext } from "../env.ts";
import { ApiError } from "../errors.ts";
import type { HubResult } from "./result.ts";
import { userHub } from "./stub.ts";
import type { Caller } from "./user-hub.ts";

export function hubFor(env: Env, auth: AuthContext) {
  const caller: Caller = { userId: auth.userId, deviceId: auth.deviceId };
  return { hub: userHub(env, auth.userId), caller };
}

export function unwrap<T>(result: HubResult<T>): T {
  if (result.ok) return result.value;
  throw new ApiError(result.status, result.code, result.message, { details: result.details });
}
