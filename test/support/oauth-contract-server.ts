// Google's and GitHub's OAuth endpoints as a contract server on 127.0.0.1, answering the requests and responses of
// their published contracts: the authorization (a consent page, then the redirect back with code and state),
// the token endpoint (authorization_code with PKCE S256, refresh_token with optional rotation), revocation
// (Google RFC 7009, GitHub's DELETE /applications/{client_id}/token) and GitHub's GET /user. Each real host is
// a path prefix: http://127.0.0.1:<port>/oauth2.googleapis.com/token stands for https://oauth2.googleapis.com/token.
// Errors as the providers send them: invalid_grant for a used, expired or wrong-verifier code and for a retired
// refresh token; GitHub's 200 with `error` (bad_verification_code); invalid_client; 401 Bad credentials.
// How a grant behaves (account, lifetime, rotation) rides on the consent, so parallel tests never share settings.
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { json, readBody } from "./http-io.ts";

export const TEST_CLIENTS = {
  google: { id: "airlock-test.apps.googleusercontent.com", secret: "google-client-secret-test-0123" },
  github: { id: "Iv1.airlocktestclient", secret: "github-client-secret-test-0123" },
} as const;

type Provider = "google" | "github";

/** How a consented grant behaves; set on the consent (form fields x_account, x_expires_in, x_rotate). */
export interface GrantBehaviour {
  account: string;
  /** Seconds an access token lives (Google); GitHub OAuth app tokens do not expire. */
  expiresIn: number;
  /** Each refresh answers a new refresh token and retires the old one. */
  rotate: boolean;
}

interface Grant {
  provider: Provider;
  behaviour: GrantBehaviour;
  scopes: string[];
  revoked: boolean;
}

export interface ProviderEvent {
  provider: Provider;
  endpoint: "authorize" | "consent" | "token" | "revoke" | "user";
  account?: string;
  grantType?: string;
  outcome: string;
  /** The token a revocation named (tests check it is the one they planted). */
  token?: string;
}

export interface OAuthContractServer {
  url: string;
  events(): ProviderEvent[];
  /** The person revoked the app at the provider (or the refresh token expired): every token of the account dies. */
  revokeAccount(account: string): void;
  /** Issued tokens of an account and the PKCE verifiers it received, in order (what a planted-secret test looks for). */
  tokensOf(account: string): string[];
  /**
   * What a resource server learns from an access token this server issued (the Gmail or Calendar API checking a
   * bearer): its provider, account and scopes while it lives; null once expired, revoked or never issued.
   */
  introspect(token: string): IssuedAccess | null;
  close(): Promise<void>;
}

export interface IssuedAccess {
  provider: Provider;
  account: string;
  scopes: string[];
}

const b64url = (buf: Buffer) => buf.toString("base64url");
const token = (prefix: string) => `${prefix}${randomBytes(24).toString("base64url")}`;

export async function startOAuthContractServer(): Promise<OAuthContractServer> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const codes = new Map<
    string,
    { grant: Grant; clientId: string; redirectUri: string; challenge: string; expiresAt: number }
  >();
  const accessTokens = new Map<string, { grant: Grant; expiresAt: number | null }>();
  const refreshTokens = new Map<string, Grant>();
  /** Refresh tokens a rotation replaced: refused with invalid_grant, like Google's reuse detection. */
  const retired = new Map<string, Grant>();
  const issued = new Map<string, string[]>();
  const events: ProviderEvent[] = [];

  const remember = (account: string, value: string) => {
    issued.set(account, [...(issued.get(account) ?? []), value]);
  };

  const idToken = (grant: Grant, clientId: string) => {
    const now = Math.floor(Date.now() / 1000);
    const header = b64url(Buffer.from(JSON.stringify({ alg: "RS256", typ: "JWT", kid: "contract" })));
    const claims = {
      iss: "https://accounts.google.com",
      aud: clientId,
      azp: clientId,
      sub: createHash("sha256").update(grant.behaviour.account).digest("hex").slice(0, 21),
      email: grant.behaviour.account,
      email_verified: true,
      iat: now,
      exp: now + 3600,
    };
    const payload = b64url(Buffer.from(JSON.stringify(claims)));
    const signature = sign("RSA-SHA256", Buffer.from(`${header}.${payload}`), privateKey);
    return `${header}.${payload}.${b64url(signature)}`;
  };

  const issueAccess = (grant: Grant) => {
    const value = token(grant.provider === "google" ? "ya29.test-" : "gho_test");
    const expiresAt = grant.provider === "google" ? Date.now() + grant.behaviour.expiresIn * 1000 : null;
    accessTokens.set(value, { grant, expiresAt });
    remember(grant.behaviour.account, value);
    return value;
  };
  const issueRefresh = (grant: Grant) => {
    const value = token(grant.provider === "google" ? "1//test-" : "ghr_test");
    refreshTokens.set(value, grant);
    remember(grant.behaviour.account, value);
    return value;
  };

  /** Token errors: Google's 400 JSON, GitHub's 200 JSON with `error`. */
  const tokenError = (res: ServerResponse, provider: Provider, error: string, description: string) => {
    if (provider === "github") {
      const code = error === "invalid_grant" ? "bad_verification_code" : error;
      json(res, 200, { error: code, error_description: description });
    } else json(res, error === "invalid_client" ? 401 : 400, { error, error_description: description });
  };

  const consentPage = (provider: Provider, query: URLSearchParams) => {
    const hidden = [...query.entries()]
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${v.replaceAll('"', "&quot;")}">`)
      .join("");
    const scopes = (query.get("scope") ?? "").split(/[ ,]+/).filter(Boolean);
    const action =
      provider === "google"
        ? "/accounts.google.com/o/oauth2/v2/auth/consent"
        : "/github.com/login/oauth/authorize/consent";
    return `<!doctype html><html><head><meta name="viewport" content="width=device-width"><title>Consent (${provider})</title></head><body>
<h1>Allow Airlock?</h1><ul>${scopes.map((s) => `<li class="scope">${s}</li>`).join("")}</ul>
<form method="post" action="${action}">${hidden}
<label>Account <input name="x_account" value="${provider === "google" ? "person@example.com" : "octo-person"}"></label>
<button name="decision" value="allow">Allow</button><button name="decision" value="deny">Cancel</button></form></body></html>`;
  };

  const authorize = (res: ServerResponse, provider: Provider, query: URLSearchParams) => {
    const client = TEST_CLIENTS[provider];
    const problem =
      query.get("client_id") !== client.id
        ? "unknown client_id"
        : query.get("response_type") !== "code"
          ? "response_type must be code"
          : query.get("code_challenge_method") !== "S256" || !query.get("code_challenge")
            ? "PKCE S256 required"
            : !query.get("redirect_uri") || !query.get("state")
              ? "redirect_uri and state required"
              : provider === "google" && query.get("access_type") !== "offline"
                ? "access_type=offline expected"
                : null;
    events.push({ provider, endpoint: "authorize", outcome: problem ?? "consent_page" });
    if (problem) {
      res.writeHead(400, { "content-type": "text/plain" });
      res.end(`Error 400: invalid_request (${problem})`);
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(consentPage(provider, query));
  };

  const consent = (res: ServerResponse, provider: Provider, form: URLSearchParams) => {
    const redirect = new URL(form.get("redirect_uri") ?? "");
    redirect.searchParams.set("state", form.get("state") ?? "");
    const account = form.get("x_account") || (provider === "google" ? "person@example.com" : "octo-person");
    if (form.get("decision") !== "allow") {
      redirect.searchParams.set("error", "access_denied");
      events.push({ provider, endpoint: "consent", account, outcome: "denied" });
    } else {
      const scopes = (form.get("scope") ?? "").split(/[ ,]+/).filter(Boolean);
      const grant: Grant = {
        provider,
        scopes,
        revoked: false,
        behaviour: {
          account,
          expiresIn: Number(form.get("x_expires_in") ?? 3599),
          rotate: form.get("x_rotate") === "1",
        },
      };
      const code = token("code-");
      codes.set(code, {
        grant,
        clientId: form.get("client_id") ?? "",
        redirectUri: form.get("redirect_uri") ?? "",
        challenge: form.get("code_challenge") ?? "",
        expiresAt: Date.now() + 60_000,
      });
      redirect.searchParams.set("code", code);
      if (provider === "google") redirect.searchParams.set("scope", scopes.join(" "));
      events.push({ provider, endpoint: "consent", account, outcome: "allowed" });
    }
    res.writeHead(302, { location: redirect.href });
    res.end();
  };

  const tokenEndpoint = (
    res: ServerResponse,
    provider: Provider,
    form: URLSearchParams,
    req: IncomingMessage,
  ) => {
    const client = TEST_CLIENTS[provider];
    const grantType = form.get("grant_type") ?? "authorization_code";
    const record = (outcome: string, account?: string) =>
      events.push({ provider, endpoint: "token", grantType, outcome, ...(account ? { account } : {}) });
    if (form.get("client_id") !== client.id || form.get("client_secret") !== client.secret) {
      record("invalid_client");
      return tokenError(res, provider, "invalid_client", "The OAuth client was not found.");
    }
    if (provider === "github" && !(req.headers.accept ?? "").includes("application/json")) {
      record("not_json");
      res.writeHead(200, { "content-type": "application/x-www-form-urlencoded" });
      return res.end("error=accept_json_expected");
    }
    if (grantType === "authorization_code") {
      const code = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      const problem = !code
        ? "Malformed auth code."
        : code.expiresAt < Date.now()
          ? "Code expired."
          : code.clientId !== client.id || code.redirectUri !== form.get("redirect_uri")
            ? "redirect_uri_mismatch"
            : code.challenge !== challenge
              ? "Invalid code verifier."
              : null;
      if (problem || !code) {
        record(`invalid_grant: ${problem}`);
        return tokenError(res, provider, "invalid_grant", problem ?? "bad code");
      }
      const { grant } = code;
      // The verifier is a secret of the edge too: planted-secret tests look for it with the tokens.
      remember(grant.behaviour.account, verifier);
      const access = issueAccess(grant);
      record("issued", grant.behaviour.account);
      if (provider === "github") {
        return json(res, 200, { access_token: access, token_type: "bearer", scope: grant.scopes.join(",") });
      }
      return json(res, 200, {
        access_token: access,
        expires_in: grant.behaviour.expiresIn,
        refresh_token: issueRefresh(grant),
        scope: grant.scopes.join(" "),
        token_type: "Bearer",
        id_token: idToken(grant, client.id),
      });
    }
    if (grantType === "refresh_token") {
      const presented = form.get("refresh_token") ?? "";
      const grant = refreshTokens.get(presented) ?? retired.get(presented);
      if (!grant || grant.revoked || retired.has(presented)) {
        record("invalid_grant: Token has been expired or revoked.", grant?.behaviour.account);
        return tokenError(res, provider, "invalid_grant", "Token has been expired or revoked.");
      }
      const body: Record<string, unknown> = {
        access_token: issueAccess(grant),
        expires_in: grant.behaviour.expiresIn,
        scope: grant.scopes.join(" "),
        token_type: "Bearer",
      };
      if (grant.behaviour.rotate) {
        refreshTokens.delete(presented);
        retired.set(presented, grant);
        body.refresh_token = issueRefresh(grant);
      }
      record(grant.behaviour.rotate ? "issued_rotated" : "issued", grant.behaviour.account);
      return json(res, 200, body);
    }
    record("unsupported_grant_type");
    return tokenError(res, provider, "unsupported_grant_type", grantType);
  };

  // Revoked grants keep their tokens on file (refused from now on), so refusals still name the account.
  const revokeGrant = (grant: Grant) => {
    grant.revoked = true;
  };

  const googleRevoke = (res: ServerResponse, form: URLSearchParams) => {
    const value = form.get("token") ?? "";
    const found = refreshTokens.get(value) ?? accessTokens.get(value)?.grant;
    const grant = found && !found.revoked ? found : undefined;
    events.push({
      provider: "google",
      endpoint: "revoke",
      token: value,
      outcome: grant ? "revoked" : "invalid_token",
      ...(grant ? { account: grant.behaviour.account } : {}),
    });
    if (!grant)
      return json(res, 400, { error: "invalid_token", error_description: "Token expired or revoked" });
    revokeGrant(grant);
    return json(res, 200, {});
  };

  const basicClient = (req: IncomingMessage) => {
    const match = /^Basic (.+)$/.exec(req.headers.authorization ?? "");
    return match ? Buffer.from(match[1] ?? "", "base64").toString() : "";
  };

  const githubApi = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (req.method === "GET" && path === "/user") {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
      const found = accessTokens.get(bearer);
      const entry =
        found && !found.grant.revoked && (found.expiresAt === null || found.expiresAt > Date.now())
          ? found
          : undefined;
      events.push({
        provider: "github",
        endpoint: "user",
        outcome: entry ? "ok" : "bad_credentials",
        ...(entry ? { account: entry.grant.behaviour.account } : {}),
      });
      if (!entry)
        return json(res, 401, {
          message: "Bad credentials",
          documentation_url: "https://docs.github.com/rest",
        });
      return json(res, 200, { login: entry.grant.behaviour.account, id: 583231, type: "User" });
    }
    const revoke = /^\/applications\/([^/]+)\/token$/.exec(path);
    if (req.method === "DELETE" && revoke) {
      const client = TEST_CLIENTS.github;
      const body = JSON.parse((await readBody(req)) || "{}") as { access_token?: string };
      if (
        decodeURIComponent(revoke[1] ?? "") !== client.id ||
        basicClient(req) !== `${client.id}:${client.secret}`
      ) {
        events.push({ provider: "github", endpoint: "revoke", outcome: "unauthorized" });
        return json(res, 401, { message: "Requires authentication" });
      }
      const found = accessTokens.get(body.access_token ?? "");
      const entry = found && !found.grant.revoked ? found : undefined;
      events.push({
        provider: "github",
        endpoint: "revoke",
        token: body.access_token ?? "",
        outcome: entry ? "revoked" : "not_found",
        ...(entry ? { account: entry.grant.behaviour.account } : {}),
      });
      if (!entry) return json(res, 404, { message: "Not Found" });
      revokeGrant(entry.grant);
      res.writeHead(204);
      return res.end();
    }
    return json(res, 404, { message: "Not Found" });
  };

  const revokeAccount = (account: string) => {
    for (const grant of [...refreshTokens.values(), ...[...accessTokens.values()].map((e) => e.grant)]) {
      if (grant.behaviour.account === account) revokeGrant(grant);
    }
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = url.pathname;
    try {
      // The test's side door (tests inside workerd cannot call the Node methods): events, issued tokens, revoking.
      if (path === "/__control/events") {
        const account = url.searchParams.get("account");
        return json(
          res,
          200,
          events.filter((e) => !account || e.account === account),
        );
      }
      if (path === "/__control/tokens")
        return json(res, 200, issued.get(url.searchParams.get("account") ?? "") ?? []);
      if (req.method === "POST" && path === "/__control/revoke-account") {
        revokeAccount(url.searchParams.get("account") ?? "");
        return json(res, 200, { ok: true });
      }
      if (req.method === "GET" && path === "/accounts.google.com/o/oauth2/v2/auth")
        return authorize(res, "google", url.searchParams);
      if (req.method === "GET" && path === "/github.com/login/oauth/authorize")
        return authorize(res, "github", url.searchParams);
      if (req.method === "POST" && path === "/accounts.google.com/o/oauth2/v2/auth/consent")
        return consent(res, "google", new URLSearchParams(await readBody(req)));
      if (req.method === "POST" && path === "/github.com/login/oauth/authorize/consent")
        return consent(res, "github", new URLSearchParams(await readBody(req)));
      if (req.method === "POST" && path === "/oauth2.googleapis.com/token")
        return tokenEndpoint(res, "google", new URLSearchParams(await readBody(req)), req);
      if (req.method === "POST" && path === "/github.com/login/oauth/access_token")
        return tokenEndpoint(res, "github", new URLSearchParams(await readBody(req)), req);
      if (req.method === "POST" && path === "/oauth2.googleapis.com/revoke")
        return googleRevoke(res, new URLSearchParams(await readBody(req)));
      if (path.startsWith("/api.github.com/"))
        return await githubApi(req, res, path.slice("/api.github.com".length));
      return json(res, 404, { error: "not_found" });
    } catch (error) {
      return json(res, 500, { error: "server_error", error_description: String(error) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    events: () => [...events],
    revokeAccount,
    tokensOf: (account) => [...(issued.get(account) ?? [])],
    introspect: (value) => {
      const entry = accessTokens.get(value);
      if (!entry || entry.grant.revoked || (entry.expiresAt !== null && entry.expiresAt <= Date.now()))
        return null;
      const { grant } = entry;
      return { provider: grant.provider, account: grant.behaviour.account, scopes: [...grant.scopes] };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
