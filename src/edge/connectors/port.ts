// The one seam between connections (OAuth tokens, issue 23 part 1) and connector tools (part 2).
// Tools never see refresh tokens, never read the oauth_tokens table; they ask this port for a live
// access token of one identity's connection and report a 401 back.
export type ConnectorProvider = "google" | "github";
export type ConnectorIdentity = "user" | "bot";

export interface ConnectionAccess {
  connectionId: string;
  provider: ConnectorProvider;
  identity: ConnectorIdentity;
  /** The account the token acts as: an email for Google, a login for GitHub. */
  account: string;
  accessToken: string;
  /** Scopes granted at the provider, as the provider names them. */
  scopes: readonly string[];
}

export interface ConnectionTokens {
  /** The live access token of this identity's connection to the provider (refreshed first when it has expired); null when not connected or revoked. */
  access(userId: string, provider: ConnectorProvider, identity: ConnectorIdentity): Promise<ConnectionAccess | null>;
  /** The provider answered 401 with this token: refresh once and return the new access, or null (the connection is marked broken). */
  refreshAfterUnauthorized(userId: string, connectionId: string): Promise<ConnectionAccess | null>;
  /** Records that a call used the connection (shown as "last used" on the phone). */
  markUsed(userId: string, connectionId: string): Promise<void>;
}
