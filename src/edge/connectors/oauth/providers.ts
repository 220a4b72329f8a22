// What Airlock knows about each provider, as data: its OAuth endpoints, which scopes each capability needs (least
// privilege), and the extra authorization parameters it wants. The flow code (client.ts) reads only this.
import type {
  ConnectorCapability,
  ConnectorProvider,
  GithubCapability,
  GoogleCapability,
} from "../../../protocol/connections.ts";

export interface ProviderSpec {
  /** The issuer an ID token names (Google), kept real even when a test moves the endpoints. */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** RFC 7009 revocation (Google); GitHub revokes through its REST API instead (`apiBase`). */
  revocationEndpoint?: string;
  apiBase?: string;
  /** Scopes every connection asks for, whatever the capability (to know the account). */
  baseScopes: readonly string[];
  extraAuthorizationParams: Readonly<Record<string, string>>;
  /** How the provider separates scopes in a token response. */
  scopeSeparator: RegExp;
}

const GOOGLE_SCOPES: Record<GoogleCapability, readonly string[]> = {
  // Read mail and labels, never change them.
  "mail.read": ["https://www.googleapis.com/auth/gmail.readonly"],
  // Drafts, sends and replies: gmail.compose, not the full mailbox scope.
  "mail.compose": ["https://www.googleapis.com/auth/gmail.compose"],
  "calendar.read": ["https://www.googleapis.com/auth/calendar.readonly"],
  // Events only, not calendar settings or sharing.
  "calendar.write": ["https://www.googleapis.com/auth/calendar.events"],
};

const GITHUB_SCOPES: Record<GithubCapability, readonly string[]> = {
  // Comment, open and merge on public repositories only.
  "repo.public": ["public_repo"],
  // GitHub's OAuth apps have no narrower scope for private repositories.
  "repo.private": ["repo"],
};

export const PROVIDERS: Record<ConnectorProvider, ProviderSpec> = {
  google: {
    issuer: "https://accounts.google.com",
    authorizationEndpoint: "https://accounts.google.com/o/oauth2/v2/auth",
    tokenEndpoint: "https://oauth2.googleapis.com/token",
    revocationEndpoint: "https://oauth2.googleapis.com/revoke",
    baseScopes: ["openid", "email"],
    // offline: a refresh token; include_granted_scopes: incremental consent keeps earlier grants; consent: Google
    // issues a refresh token only on a consent screen.
    extraAuthorizationParams: { access_type: "offline", include_granted_scopes: "true", prompt: "consent" },
    scopeSeparator: / +/,
  },
  github: {
    issuer: "https://github.com",
    authorizationEndpoint: "https://github.com/login/oauth/authorize",
    tokenEndpoint: "https://github.com/login/oauth/access_token",
    apiBase: "https://api.github.com",
    baseScopes: [],
    extraAuthorizationParams: { allow_signup: "false" },
    scopeSeparator: /[ ,]+/,
  },
};

/** The scopes to ask for: the provider's base scopes, each capability's, and the ones already granted. */
export function scopesFor(
  provider: ConnectorProvider,
  capabilities: readonly ConnectorCapability[],
  alreadyGranted: readonly string[] = [],
): string[] {
  const table: Record<string, readonly string[]> = provider === "google" ? GOOGLE_SCOPES : GITHUB_SCOPES;
  const wanted = new Set<string>(PROVIDERS[provider].baseScopes);
  for (const capability of capabilities) for (const scope of table[capability] ?? []) wanted.add(scope);
  // GitHub has no incremental consent: a new authorization replaces the grant, so it must ask for the old scopes too.
  if (provider === "github") for (const scope of alreadyGranted) wanted.add(scope);
  return [...wanted];
}

/** A provider's scope string as a list ("repo,gist" or "openid email"). */
export function parseScopes(provider: ConnectorProvider, scope: string | undefined): string[] {
  if (!scope) return [];
  return [...new Set(scope.split(PROVIDERS[provider].scopeSeparator).filter(Boolean))];
}
