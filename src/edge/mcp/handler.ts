// The /mcp endpoint behind the OAuth provider (which has already refused missing, expired, revoked and
// wrong-audience tokens): MCP's streamable HTTP transport, stateless, one server per request.
import type { OAuthResourceAuth } from "@cloudflare/workers-oauth-provider";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { McpTokenProps } from "../../protocol/mcp.ts";
import { mcpServer } from "./server.ts";

/** The largest JSON-RPC body accepted (the API's own limit). */
const MAX_BODY_BYTES = 256 * 1024;

const envelope = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status, headers: { "Cache-Control": "no-store" } });

export const mcpApiHandler = {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const props = McpTokenProps.safeParse(ctx.props);
    // A token whose props are not ours (an older grant shape) is refused, never guessed at.
    if (!props.success)
      return envelope(401, "unauthenticated", "This token does not name an Airlock account.");
    const auth = (ctx as ExecutionContext & { auth?: OAuthResourceAuth }).auth;
    const scopes = auth?.scope ?? [];
    // Stateless streamable HTTP: no session to resume, so GET (a server stream) and DELETE have nothing to do.
    if (request.method !== "POST") {
      return new Response(null, { status: 405, headers: { Allow: "POST" } });
    }
    const server = mcpServer(env, { props: props.data, scopes });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      // Each answer in one JSON body: every call here finishes (or answers "pending") within the request.
      enableJsonResponse: true,
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      ctx.waitUntil(server.close());
    }
  },
} satisfies ExportedHandler<Env>;
