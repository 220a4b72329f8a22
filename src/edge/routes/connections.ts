// Connections to Google and GitHub (docs/connectors.md): list, start connecting, the provider's callback, revoke.
// Only approvers (the person's phone) list, start and revoke; with a passkey registered, start and revoke also need
// a fresh step-up (src/edge/auth/step-up.ts) like every other person-only act. The callback is reached by the
// provider's redirect, which carries no SameSite=Strict session cookie, so it is bound to the starting browser by
// its own cookie.
import { getCookie, setCookie } from "hono/cookie";
import {
  CallbackParams,
  CallbackQuery,
  ConnectionList,
  ConnectionParams,
  ConnectionRevoked,
  ConnectionStarted,
  StartConnection,
} from "../../protocol/connections.ts";
import { writeAudit } from "../audit/audit-log.ts";
import { keyRing } from "../connectors/oauth/cipher.ts";
import { revokeAtProvider } from "../connectors/oauth/client.ts";
import { clientCredentials, configuredProviders } from "../connectors/oauth/config.ts";
import { finishConnection, startConnection } from "../connectors/oauth/flow.ts";
import { STATE_TTL_MS } from "../connectors/oauth/states.ts";
import { connectionById, deleteConnection, listConnections, openConnection } from "../connectors/store.ts";
import { openDb } from "../db/client.ts";
import { ApiError, notFound } from "../errors.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

/** The browser binding of an authorization under way: only the callback path ever receives it. */
export const BINDING_COOKIE = "airlock_oauth_binding";
const CALLBACK_PATH = "/v1/connections/callback";

function bindingCookie(env: Env, maxAgeSeconds: number) {
  return {
    httpOnly: true,
    secure: env.AIRLOCK_COOKIE_SECURE !== "false",
    // Lax, not Strict: the provider's redirect back is a cross-site top-level navigation.
    sameSite: "Lax" as const,
    path: CALLBACK_PATH,
    maxAge: maxAgeSeconds,
  };
}

/** A person's browser landed here: answer with the Connections view, not JSON. */
function isNavigation(headers: { get(name: string): string | null }): boolean {
  return headers.get("sec-fetch-mode") === "navigate" || (headers.get("accept") ?? "").includes("text/html");
}

export const connectionRoutes = routeGroup()
  .openapi(
    apiRoute("read_connections", {
      method: "get",
      path: "/v1/connections",
      summary:
        "The account's connections to Google and GitHub: identity, account, scopes, last use (never a token)",
      responses: {
        200: json("Connections, newest first, and the providers this server can connect.", ConnectionList),
      },
    }),
    async (c) => {
      const auth = c.get("auth");
      const connections = await listConnections(openDb(c.env.DB), auth.userId);
      return c.json({ connections, configured: configuredProviders(c.env) }, 200);
    },
  )
  .openapi(
    apiRoute(
      "manage_connections",
      {
        method: "post",
        path: "/v1/connections/start",
        summary:
          "Start connecting a provider as `user` or `bot`, asking only for the named capabilities' scopes",
        request: jsonRequest(StartConnection),
        responses: {
          200: json(
            "Send the browser to authorization_url; the callback finishes within ten minutes.",
            ConnectionStarted,
          ),
          409: problem("The provider's OAuth client or AIRLOCK_OAUTH_KEYS is not set on this server."),
        },
      },
      // Handing the assistant a mailbox or a repository is the person's act: a passkey check once one exists.
      { stepUp: true },
    ),
    async (c) => {
      const auth = c.get("auth");
      const body = c.req.valid("json");
      const started = await startConnection(
        c.env,
        openDb(c.env.DB),
        auth,
        { ...body, requestUrl: c.req.url },
        Date.now(),
      );
      setCookie(c, BINDING_COOKIE, started.binding, bindingCookie(c.env, STATE_TTL_MS / 1000));
      return c.json(
        {
          authorization_url: started.url.href,
          scopes: started.scopes,
          expires_at: new Date(started.expiresAt).toISOString(),
        },
        200,
      );
    },
  )
  .openapi(
    apiRoute("public", {
      method: "get",
      path: "/v1/connections/callback/{provider}",
      summary: "The provider's redirect back (single-use state, the starting browser's binding cookie, PKCE)",
      request: { params: CallbackParams, query: CallbackQuery },
      responses: {
        303: { description: "Connected (or, for a browser, refused): on to the Connections view." },
        400: problem("Unknown, used or expired state; the provider refused; the code did not trade."),
        403: problem("Another browser's sign-in, or the starting device was revoked."),
        502: problem("The provider did not answer usably."),
      },
    }),
    async (c) => {
      const { provider } = c.req.valid("param");
      const binding = getCookie(c, BINDING_COOKIE);
      setCookie(c, BINDING_COOKIE, "", bindingCookie(c.env, 0));
      const params = new URL(c.req.url).searchParams;
      try {
        const finished = await finishConnection(
          c.env,
          openDb(c.env.DB),
          { provider, params, binding },
          Date.now(),
        );
        return c.redirect(`/connections?connected=${encodeURIComponent(finished.id)}`, 303);
      } catch (error) {
        if (!(error instanceof ApiError) || !isNavigation(c.req.raw.headers)) throw error;
        const back = new URLSearchParams({ error: error.code, message: error.message });
        return c.redirect(`/connections?${back}`, 303);
      }
    },
  )
  .openapi(
    apiRoute(
      "manage_connections",
      {
        method: "post",
        path: "/v1/connections/{id}/revoke",
        summary: "Revoke a connection at the provider and delete its tokens here",
        request: { params: ConnectionParams },
        responses: { 200: json("Revoked.", ConnectionRevoked), 404: problem("No connection with that id.") },
      },
      { stepUp: true },
    ),
    async (c) => {
      const auth = c.get("auth");
      const { id } = c.req.valid("param");
      const db = openDb(c.env.DB);
      const row = await connectionById(db, auth.userId, id);
      if (!row) throw notFound(`No connection ${id} on this account.`);
      let providerRevoked = false;
      const credentials = clientCredentials(c.env, row.provider);
      try {
        const opened = await openConnection(await keyRing(c.env.AIRLOCK_OAUTH_KEYS), row);
        if (credentials) {
          // Google ends the whole grant with its refresh token; GitHub revokes by access token.
          const token =
            row.provider === "google" ? (opened.refreshToken ?? opened.accessToken) : opened.accessToken;
          await revokeAtProvider(row.provider, credentials, token);
          providerRevoked = true;
        }
      } catch {
        // The provider was unreachable or the key is gone: the tokens are deleted here all the same.
      }
      if (!(await deleteConnection(db, auth.userId, id)))
        throw notFound(`No connection ${id} on this account.`);
      await writeAudit(db, {
        userId: auth.userId,
        deviceId: auth.deviceId,
        actor: `device:${auth.deviceId}`,
        event: "connection.revoked",
        target: id,
        details: {
          provider: row.provider,
          identity: row.identity,
          account: row.account,
          provider_revoked: providerRevoked,
        },
      });
      return c.json({ id, revoked: true as const, provider_revoked: providerRevoked }, 200);
    },
  );
