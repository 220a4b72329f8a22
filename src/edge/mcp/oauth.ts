// Remote MCP's OAuth server (@cloudflare/workers-oauth-provider): one provider per origin the Worker is
// reached at (issuer and MCP resource are that origin's), the paths it owns, and its helpers for the routes.
import { getOAuthApi, type OAuthHelpers, OAuthProvider } from "@cloudflare/workers-oauth-provider";
import { MCP_SCOPES, REQUIRED_MCP_SCOPE } from "../../protocol/mcp.ts";
import { mcpApiHandler } from "./handler.ts";
import { AUTHORIZE_PATH, MCP_PATH, REGISTER_PATH, TOKEN_PATH } from "./paths.ts";

/** Access tokens live an hour; the client refreshes (refresh tokens rotate, 30 days idle at most). */
const ACCESS_TOKEN_TTL_S = 3600;
const REFRESH_TOKEN_TTL_S = 90 * 24 * 3600;
const REFRESH_TOKEN_IDLE_TTL_S = 30 * 24 * 3600;

type Fetcher = (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;

function options(origin: string, fallback: Fetcher) {
  return {
    apiRoute: MCP_PATH,
    apiHandler: mcpApiHandler,
    // Only requests isOAuthPath sends here reach the provider; anything else it passes on is the app's.
    defaultHandler: { fetch: fallback } satisfies ExportedHandler<Env>,
    authorizeEndpoint: AUTHORIZE_PATH,
    tokenEndpoint: TOKEN_PATH,
    // Dynamic client registration, as MCP clients without a metadata document (Claude Desktop, ChatGPT) need.
    clientRegistrationEndpoint: REGISTER_PATH,
    // Client ID Metadata Documents need the global_fetch_strictly_public flag, which would change every
    // fetch this Worker makes (docs/mcp.md): registration is dynamic only.
    clientIdMetadataDocumentEnabled: false,
    scopesSupported: Object.keys(MCP_SCOPES),
    requiredScopes: [REQUIRED_MCP_SCOPE],
    accessTokenTTL: ACCESS_TOKEN_TTL_S,
    refreshTokenTTL: REFRESH_TOKEN_TTL_S,
    refreshTokenIdleTTL: REFRESH_TOKEN_IDLE_TTL_S,
    resourceMetadata: {
      resource: `${origin}${MCP_PATH}`,
      authorization_servers: [origin],
      bearer_methods_supported: ["header"],
      resource_name: "Airlock",
    },
  };
}

const providers = new Map<string, OAuthProvider<Env>>();

/** The provider for the origin a request came to (cached: a Worker is reached at one or two origins). */
export function providerFor(origin: string, fallback: Fetcher): OAuthProvider<Env> {
  let provider = providers.get(origin);
  if (!provider) {
    provider = new OAuthProvider<Env>(options(origin, fallback));
    providers.set(origin, provider);
  }
  return provider;
}

const notHere: Fetcher = () => new Response(null, { status: 404 });

/** The provider's helpers (parse an authorization request, consent, grants) for a route at this origin. */
export function oauthApi(env: Env, origin: string): OAuthHelpers {
  return getOAuthApi<Env>(options(origin, notHere), env);
}
