// The OAuth 2.0 exchanges with a provider, through oauth4webapi: the authorization URL (PKCE S256), the code and
// refresh grants, revocation, and who the account is. Every failure becomes a ProviderError that carries a code
// and never a response body (bodies hold tokens, and errors get logged).
import * as oauth from "oauth4webapi";
import type { ConnectorProvider } from "../../../protocol/connections.ts";
import { insecureForTests, providerUrl } from "./endpoints.ts";
import { PROVIDERS, parseScopes } from "./providers.ts";

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** What a token endpoint granted. `scopes` null: the response named none (keep what was asked for). */
export interface Grant {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
  scopes: string[] | null;
  /** Google: the verified email of the ID token. */
  email: string | null;
}

/**
 * `invalid_grant`: the code or refresh token is dead (used, expired, revoked): connect again. `refused`: the
 * person or the provider said no. `unavailable`: the provider failed or answered nonsense; try again later.
 */
export class ProviderError extends Error {
  readonly kind: "invalid_grant" | "refused" | "unavailable";
  readonly code: string;
  constructor(kind: ProviderError["kind"], code: string, message: string) {
    super(message);
    this.kind = kind;
    this.code = code;
  }
}

const TIMEOUT_MS = 10_000;

function server(provider: ConnectorProvider): oauth.AuthorizationServer {
  const spec = PROVIDERS[provider];
  return {
    issuer: spec.issuer,
    authorization_endpoint: providerUrl(spec.authorizationEndpoint).href,
    token_endpoint: providerUrl(spec.tokenEndpoint).href,
    ...(spec.revocationEndpoint ? { revocation_endpoint: providerUrl(spec.revocationEndpoint).href } : {}),
  };
}

function requestOptions() {
  return { [oauth.allowInsecureRequests]: insecureForTests(), signal: () => AbortSignal.timeout(TIMEOUT_MS) };
}

export async function authorizationUrl(
  provider: ConnectorProvider,
  credentials: ClientCredentials,
  request: { state: string; verifier: string; redirectUri: string; scopes: readonly string[] },
): Promise<URL> {
  const url = new URL(server(provider).authorization_endpoint as string);
  url.searchParams.set("client_id", credentials.clientId);
  url.searchParams.set("redirect_uri", request.redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", request.scopes.join(" "));
  url.searchParams.set("state", request.state);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(request.verifier));
  url.searchParams.set("code_challenge_method", "S256");
  for (const [name, value] of Object.entries(PROVIDERS[provider].extraAuthorizationParams)) {
    url.searchParams.set(name, value);
  }
  return url;
}

/** GitHub answers token errors with 200 and an `error` field; oauth4webapi expects a 4xx. Turn it into one. */
async function normalised(provider: ConnectorProvider, response: Response): Promise<Response> {
  if (provider !== "github" || response.status !== 200) return response;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => null);
  if (body && typeof body === "object" && "error" in body && typeof body.error === "string") {
    return new Response(JSON.stringify({ error: body.error }), {
      status: 400,
      headers: { "content-type": "application/json" },
    });
  }
  return response;
}

const DEAD_GRANT = new Set(["invalid_grant", "bad_verification_code", "bad_refresh_token", "expired_token"]);

function providerError(provider: ConnectorProvider, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    const code = error.error;
    if (DEAD_GRANT.has(code))
      return new ProviderError("invalid_grant", code, `${provider} refused the grant (${code}).`);
    return new ProviderError("refused", code, `${provider} refused the request (${code}).`);
  }
  if (error instanceof oauth.AuthorizationResponseError) {
    return new ProviderError(
      "refused",
      error.error,
      `${provider} answered the authorization with ${error.error}.`,
    );
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    return new ProviderError(
      "refused",
      "invalid_client",
      `${provider} refused Airlock's client credentials.`,
    );
  }
  // Parse failures quote the body (tokens included): only the kind of failure goes on.
  const name = error instanceof Error ? error.name : "error";
  return new ProviderError(
    "unavailable",
    "provider_unavailable",
    `${provider} did not answer usably (${name}).`,
  );
}

function grantOf(provider: ConnectorProvider, result: oauth.TokenEndpointResponse, now: number): Grant {
  const claims = oauth.getValidatedIdTokenClaims(result);
  const email =
    claims && claims.email_verified === true && typeof claims.email === "string" ? claims.email : null;
  return {
    accessToken: result.access_token,
    refreshToken: result.refresh_token ?? null,
    expiresAt: typeof result.expires_in === "number" ? now + result.expires_in * 1000 : null,
    scopes: result.scope === undefined ? null : parseScopes(provider, result.scope),
    email,
  };
}

/** Airlock as the provider's confidential client: its server, its id, and its secret sent in the body. */
function asClient(provider: ConnectorProvider, credentials: ClientCredentials) {
  const client: oauth.Client = { client_id: credentials.clientId };
  return { as: server(provider), client, auth: oauth.ClientSecretPost(credentials.clientSecret) };
}

/** Checks the callback's parameters against the state the edge issued, then trades the code (with the verifier). */
export async function exchangeCode(
  provider: ConnectorProvider,
  credentials: ClientCredentials,
  callback: { params: URLSearchParams; state: string; verifier: string; redirectUri: string },
): Promise<Grant> {
  const { as, client, auth } = asClient(provider, credentials);
  try {
    const params = oauth.validateAuthResponse(as, client, callback.params, callback.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      auth,
      params,
      callback.redirectUri,
      callback.verifier,
      requestOptions(),
    );
    const result = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await normalised(provider, response),
    );
    return grantOf(provider, result, Date.now());
  } catch (error) {
    throw providerError(provider, error);
  }
}

export async function refreshGrant(
  provider: ConnectorProvider,
  credentials: ClientCredentials,
  refreshToken: string,
): Promise<Grant> {
  const { as, client, auth } = asClient(provider, credentials);
  try {
    const response = await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, requestOptions());
    const result = await oauth.processRefreshTokenResponse(as, client, await normalised(provider, response));
    return grantOf(provider, result, Date.now());
  } catch (error) {
    throw providerError(provider, error);
  }
}

function githubApi(path: string): URL {
  return providerUrl(`${PROVIDERS.github.apiBase}${path}`);
}

const githubHeaders = {
  accept: "application/vnd.github+json",
  "x-github-api-version": "2022-11-28",
  "user-agent": "airlock-connections",
};

/** Revokes the grant at the provider. Google: RFC 7009 on the refresh token (ends the whole grant). GitHub: its REST API. */
export async function revokeAtProvider(
  provider: ConnectorProvider,
  credentials: ClientCredentials,
  token: string,
): Promise<void> {
  try {
    if (provider === "github") {
      const response = await fetch(
        githubApi(`/applications/${encodeURIComponent(credentials.clientId)}/token`),
        {
          method: "DELETE",
          headers: {
            ...githubHeaders,
            authorization: `Basic ${btoa(`${credentials.clientId}:${credentials.clientSecret}`)}`,
            "content-type": "application/json",
          },
          body: JSON.stringify({ access_token: token }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        },
      );
      await response.body?.cancel();
      // 404: GitHub no longer knows the token (already revoked there), which is the state we want.
      if (response.status !== 204 && response.status !== 404) {
        throw new ProviderError(
          "unavailable",
          "revoke_failed",
          `github answered ${response.status} to the revocation.`,
        );
      }
      return;
    }
    const { as, client, auth } = asClient(provider, credentials);
    const response = await oauth.revocationRequest(as, client, auth, token, requestOptions());
    await oauth.processRevocationResponse(response);
  } catch (error) {
    const failure = providerError(provider, error);
    // Google answers invalid_token for a token it already forgot: revoked is revoked.
    if (failure.code === "invalid_token") return;
    throw failure;
  }
}

/** The account a fresh grant acts as: Google's verified email (ID token), GitHub's login (GET /user). */
export async function accountOf(provider: ConnectorProvider, grant: Grant): Promise<string> {
  if (provider === "google") {
    if (!grant.email) throw new ProviderError("refused", "no_email", "google did not name a verified email.");
    return grant.email;
  }
  let response: Response;
  try {
    response = await fetch(githubApi("/user"), {
      headers: { ...githubHeaders, authorization: `Bearer ${grant.accessToken}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw providerError(provider, error);
  }
  const body: unknown = await response.json().catch(() => null);
  if (
    !response.ok ||
    !body ||
    typeof body !== "object" ||
    !("login" in body) ||
    typeof body.login !== "string"
  ) {
    throw new ProviderError(
      "unavailable",
      "no_login",
      `github did not name the account (${response.status}).`,
    );
  }
  return body.login;
}
