// Which requests the OAuth provider answers (src/edge/mcp/paths.ts): only its own paths, so no /v1 route,
// no dashboard path and no look-alike (/mcpx, /oauth/authorize) ever skips Airlock's own authentication.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isOAuthPath } from "../../../src/edge/mcp/paths.ts";

const segment = fc.stringMatching(/^[A-Za-z0-9._~%-]{0,12}$/);
const tail = fc.array(segment, { maxLength: 4 }).map((parts) => parts.map((p) => `/${p}`).join(""));

describe("isOAuthPath", () => {
  it("never claims an API, health or dashboard path", () => {
    fc.assert(
      fc.property(tail, (rest) => {
        expect(isOAuthPath(`/v1${rest}`)).toBe(false);
        expect(isOAuthPath(`/healthz${rest}`)).toBe(false);
        expect(isOAuthPath(`/oauth/authorize${rest}`)).toBe(false);
        expect(isOAuthPath(`/approvals${rest}`)).toBe(false);
      }),
    );
  });

  it("claims /mcp and below, never a look-alike prefix", () => {
    fc.assert(
      fc.property(segment, tail, (suffix, rest) => {
        expect(isOAuthPath(`/mcp${rest}`)).toBe(rest === "" || rest.startsWith("/"));
        if (suffix !== "") expect(isOAuthPath(`/mcp${suffix}`)).toBe(false);
      }),
    );
  });

  it("claims exactly the token, registration and discovery paths", () => {
    for (const path of [
      "/oauth/token",
      "/oauth/register",
      "/.well-known/oauth-authorization-server",
      "/.well-known/oauth-protected-resource/mcp",
    ])
      expect(isOAuthPath(path)).toBe(true);
    for (const path of ["/oauth/tokens", "/oauth/token/x", "/.well-known/security.txt", "/oauth", "/"])
      expect(isOAuthPath(path)).toBe(false);
  });
});
