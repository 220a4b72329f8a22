// The Worker secrets connections need (all optional: without them the phone says the provider is not set up):
// the OAuth clients registered at Google and GitHub, and AIRLOCK_OAUTH_KEYS, the key ring that seals tokens.
import type { ConnectorProvider } from "../../../protocol/connections.ts";
import type { ClientCredentials } from "./client.ts";

interface ConnectionSecrets {
  /** `id:base64(32 bytes)` entries, comma-separated; the first seals, all open (cipher.ts). */
  AIRLOCK_OAUTH_KEYS?: string;
  AIRLOCK_GOOGLE_CLIENT_ID?: string;
  AIRLOCK_GOOGLE_CLIENT_SECRET?: string;
  AIRLOCK_GITHUB_CLIENT_ID?: string;
  AIRLOCK_GITHUB_CLIENT_SECRET?: string;
}
declare global {
  interface Env extends ConnectionSecrets {}
  namespace Cloudflare {
    interface Env extends ConnectionSecrets {}
  }
}

export function clientCredentials(env: Env, provider: ConnectorProvider): ClientCredentials | null {
  const [id, secret] =
    provider === "google"
      ? [env.AIRLOCK_GOOGLE_CLIENT_ID, env.AIRLOCK_GOOGLE_CLIENT_SECRET]
      : [env.AIRLOCK_GITHUB_CLIENT_ID, env.AIRLOCK_GITHUB_CLIENT_SECRET];
  const clientId = id?.trim();
  const clientSecret = secret?.trim();
  return clientId && clientSecret ? { clientId, clientSecret } : null;
}

/** Providers that can be connected: client credentials set and a key ring to seal with. */
export function configuredProviders(env: Env): ConnectorProvider[] {
  if (!env.AIRLOCK_OAUTH_KEYS?.trim()) return [];
  return (["google", "github"] as const).filter((p) => clientCredentials(env, p) !== null);
}
