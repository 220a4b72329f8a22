// Where remote MCP lives: the MCP endpoint and the OAuth paths, and which requests the OAuth provider answers.

export const MCP_PATH = "/mcp";
/** A dashboard view (web/src/views/consent-view.tsx), served from the assets; its API is /v1/mcp/consent. */
export const AUTHORIZE_PATH = "/oauth/authorize";
export const TOKEN_PATH = "/oauth/token";
export const REGISTER_PATH = "/oauth/register";

/** The paths the OAuth provider answers (discovery, token, registration, the MCP endpoint); the rest is Hono's. */
export function isOAuthPath(pathname: string): boolean {
  return (
    pathname === MCP_PATH ||
    pathname.startsWith(`${MCP_PATH}/`) ||
    pathname.startsWith("/.well-known/oauth-") ||
    pathname === TOKEN_PATH ||
    pathname === REGISTER_PATH
  );
}
