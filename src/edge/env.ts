// Hono's typing of this Worker: bindings from wrangler.toml and per-request variables.
import type { DeviceKind } from "../protocol/pairing.ts";
import type { DeviceRole } from "../protocol/roles.ts";

export interface AuthContext {
  userId: string;
  deviceId: string;
  deviceKind: DeviceKind;
  role: DeviceRole;
  tokenId: string;
  via: "bearer" | "cookie";
}

export type AppEnv = {
  Bindings: Env;
  Variables: { requestId: string; auth: AuthContext };
};
