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
  /** A parity token (src/edge/auth/parity-token.ts): only PARITY_TOKEN_ACTIONS, whatever the role says. */
  readOnly?: true;
}

export type AppEnv = {
  Bindings: Env;
  Variables: { requestId: string; auth: AuthContext };
};

/** The model provider's key (`wrangler secret put AIRLOCK_MODEL_API_KEY`); optional for local models. */
interface OptionalSecrets {
  AIRLOCK_MODEL_API_KEY?: string;
}
declare global {
  interface Env extends OptionalSecrets {}
  namespace Cloudflare {
    interface Env extends OptionalSecrets {}
  }
}
