// How remote MCP composes with the Hono app: the OAuth provider answers its own paths (discovery, token,
// registration, /mcp behind a token check); every other request goes straight to the app, untouched.
import { providerFor } from "./oauth.ts";
import { isOAuthPath } from "./paths.ts";

type Fetch = (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;

export function withRemoteMcp(app: Fetch): Fetch {
  return (request, env, ctx) => {
    const url = new URL(request.url);
    if (!isOAuthPath(url.pathname)) return app(request, env, ctx);
    return providerFor(url.origin, app).fetch(request, env, ctx);
  };
}
