// Remote MCP's person-side routes: the consent page's API (show the request, approve or deny) and the
// clients given access (list, revoke). Consent needs the person's session cookie, never a device token.
import type { Context } from "hono";
import { z } from "zod";
import {
  ConsentAnswer,
  ConsentRedirect,
  ConsentView,
  MCP_SCOPES,
  type McpClientGrant,
  McpClientGrantList,
  type McpScope,
  type McpTokenProps,
} from "../../protocol/mcp.ts";
import { auditDeviceAction } from "../audit/device-action.ts";
import type { AppEnv } from "../env.ts";
import { ApiError, notFound } from "../errors.ts";
import { AUTHORIZE_PATH } from "../mcp/paths.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

type Ctx = Context<AppEnv>;

/**
 * The OAuth provider's helpers for this request's origin. Loaded on first use: the library imports
 * `cloudflare:workers`, and the route table (OpenAPI) is also read outside workerd.
 */
async function oauthFor(c: Ctx) {
  const { oauthApi } = await import("../mcp/oauth.ts");
  return oauthApi(c.env, new URL(c.req.url).origin);
}

/** The provider's refusals of a bad request or an expired page, as the one 400 envelope. */
async function oauthStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const { AuthorizationError, CimdFetchError } = await import("@cloudflare/workers-oauth-provider");
    if (error instanceof AuthorizationError) {
      throw new ApiError(400, "bad_request", error.description, {
        details: { oauth_error: error.code, ...(error.redirectTo ? { redirect_to: error.redirectTo } : {}) },
      });
    }
    if (error instanceof CimdFetchError)
      throw new ApiError(
        400,
        "bad_request",
        "This app's metadata document could not be fetched or verified.",
      );
    throw error;
  }
}

function copyHeaders(c: Ctx, headers: Headers) {
  for (const [name, value] of headers) {
    if (name === "content-type" || name === "location") continue;
    c.header(name, value, { append: name === "set-cookie" });
  }
}

const iso = (seconds: number | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : null);
const GrantParams = z.object({ id: z.string().min(1).max(200) });

export const mcpClientRoutes = routeGroup()
  .openapi(
    apiRoute(
      "manage_mcp_clients",
      {
        method: "get",
        path: "/v1/mcp/consent",
        summary: "An MCP client's authorization request, as the consent page shows it (session cookie only)",
        description: `The query is the OAuth authorization request the client sent to ${AUTHORIZE_PATH}, unchanged.`,
        responses: {
          200: json(
            "The client, where access goes, the scopes, and the form's one-time handle.",
            ConsentView,
          ),
          400: problem("The authorization request is invalid (unknown client, unregistered redirect URI)."),
        },
      },
      { sessionCookieOnly: true },
    ),
    async (c) => {
      const url = new URL(c.req.url);
      const oauth = await oauthFor(c);
      const authorize = new Request(`${url.origin}${AUTHORIZE_PATH}${url.search}`, {
        headers: c.req.raw.headers,
      });
      const request = await oauthStep(() => oauth.parseAuthRequest(authorize));
      const details = await oauthStep(() => oauth.describeConsent(request));
      const consent = await oauthStep(() => oauth.beginConsent(request));
      copyHeaders(c, consent.headers);
      const view: ConsentView = {
        handle: consent.handle,
        client: {
          id: details.clientId,
          name: details.clientName,
          domain: details.clientDomain ?? null,
          uri: details.clientUri ?? null,
        },
        redirect_uri: details.redirectUri,
        redirect_host: details.redirectHost,
        redirect_is_loopback: details.redirectIsLoopback,
        scopes: (Object.keys(MCP_SCOPES) as McpScope[]).map((name) => ({
          name,
          description: MCP_SCOPES[name],
          requested: details.scope.includes(name),
        })),
        resource: request.resource ?? null,
      };
      return c.json(view, 200);
    },
  )
  .openapi(
    apiRoute(
      "manage_mcp_clients",
      {
        method: "post",
        path: "/v1/mcp/consent",
        summary: "Approve or deny an MCP client's authorization request (session cookie only)",
        request: jsonRequest(ConsentAnswer),
        responses: {
          200: json(
            "Where the browser goes: the client's redirect URI with a code or access_denied.",
            ConsentRedirect,
          ),
          400: problem("The page expired, was used already, or was opened in another browser."),
        },
      },
      { sessionCookieOnly: true },
    ),
    async (c) => {
      const auth = c.get("auth");
      const answer = c.req.valid("json");
      const oauth = await oauthFor(c);
      if (answer.decision === "deny") {
        const denied = await oauthStep(() => oauth.denyConsent(c.req.raw, answer.handle));
        copyHeaders(c, denied.headers);
        await auditDeviceAction(c, "mcp.consent_denied", denied.request.clientId, {
          redirect_uri: denied.request.redirectUri,
          scopes: denied.request.scope,
        });
        return c.json({ redirect_to: denied.redirectTo }, 200);
      }
      if (answer.scopes.length === 0)
        throw new ApiError(400, "validation_failed", "Tick at least one scope, or deny.", {
          details: [{ path: "scopes", message: "approve needs at least one scope" }],
        });
      const approved = await oauthStep(() =>
        oauth.approveConsent(c.req.raw, answer.handle, { scope: answer.scopes }),
      );
      const client = await oauth.lookupClient(approved.request.clientId);
      const props: McpTokenProps = {
        userId: auth.userId,
        clientId: approved.request.clientId,
        clientName: client?.clientName ?? approved.request.clientId,
      };
      const { redirectTo } = await oauthStep(() =>
        oauth.completeAuthorization({
          request: approved.request,
          userId: auth.userId,
          metadata: { client_name: props.clientName, approved_by: auth.deviceId },
          scope: approved.request.scope,
          props,
        }),
      );
      copyHeaders(c, approved.headers);
      await auditDeviceAction(c, "mcp.consent_granted", props.clientId, {
        client_name: props.clientName,
        redirect_uri: approved.request.redirectUri,
        scopes: approved.request.scope,
      });
      return c.json({ redirect_to: redirectTo }, 200);
    },
  )
  .openapi(
    apiRoute("manage_mcp_clients", {
      method: "get",
      path: "/v1/mcp/clients",
      summary: "The MCP clients this person gave access, with their scopes",
      responses: { 200: json("Every authorization still standing.", McpClientGrantList) },
    }),
    async (c) => {
      const auth = c.get("auth");
      const oauth = await oauthFor(c);
      const clients: McpClientGrant[] = [];
      let cursor: string | undefined;
      do {
        const page = await oauth.listUserGrants(auth.userId, cursor ? { cursor } : {});
        for (const g of page.items) {
          clients.push({
            id: g.id,
            client_id: g.clientId,
            client_name: typeof g.metadata?.client_name === "string" ? g.metadata.client_name : g.clientId,
            scopes: g.scope,
            redirect_uri: g.redirectUri ?? null,
            created_at: iso(g.createdAt) ?? new Date(0).toISOString(),
            expires_at: iso(g.expiresAt),
          });
        }
        cursor = page.cursor;
      } while (cursor);
      return c.json({ clients }, 200);
    },
  )
  .openapi(
    apiRoute("manage_mcp_clients", {
      method: "post",
      path: "/v1/mcp/clients/{id}/revoke",
      summary: "Revoke an MCP client's access: its tokens stop working at once",
      request: { params: GrantParams },
      responses: {
        200: json("Revoked.", z.object({ revoked: z.literal(true) })),
        404: problem("No such authorization on this account."),
      },
    }),
    async (c) => {
      const auth = c.get("auth");
      const { id } = c.req.valid("param");
      const oauth = await oauthFor(c);
      // Listed first so another account's grant id (or a made-up one) is a 404, not a silent no-op.
      const mine = await findGrant(oauth, auth.userId, id);
      if (!mine) throw notFound(`No MCP client authorization ${id} on this account.`);
      await oauth.revokeGrant(id, auth.userId);
      await auditDeviceAction(c, "mcp.client_revoked", mine.clientId, { grant_id: id, scopes: mine.scope });
      return c.json({ revoked: true as const }, 200);
    },
  );

async function findGrant(oauth: Awaited<ReturnType<typeof oauthFor>>, userId: string, id: string) {
  let cursor: string | undefined;
  do {
    const page = await oauth.listUserGrants(userId, cursor ? { cursor } : {});
    const hit = page.items.find((g) => g.id === id);
    if (hit) return hit;
    cursor = page.cursor;
  } while (cursor);
  return undefined;
}
