// The guards of connections as properties: the OAuth endpoints move to nothing but loopback http, and by default
// are the real hosts; a connection never asks for a scope its capabilities do not need. (Sealing's properties run
// in workerd: test/edge/connections/cipher.property.test.ts.)
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GithubCapability, GoogleCapability } from "../../../src/protocol/connections.ts";

describe("provider endpoints", () => {
  it("are the real hosts unless a test entry moved them", async () => {
    const { providerUrl, insecureForTests } = await import("../../../src/edge/connectors/oauth/endpoints.ts");
    expect(providerUrl("https://oauth2.googleapis.com/token").href).toBe(
      "https://oauth2.googleapis.com/token",
    );
    expect(insecureForTests()).toBe(false);
  });

  it("move only to http on a loopback address", async () => {
    const { routeOAuthToLoopbackForTests } = await import("../../../src/edge/connectors/oauth/endpoints.ts");
    const notLoopback = fc.oneof(
      fc.ipV4().filter((ip) => !ip.startsWith("127.")),
      fc.domain(),
      fc.constantFrom("[::2]", "[fe80::1]", "10.0.0.1", "169.254.169.254", "localhost.evil.example"),
    );
    fc.assert(
      fc.property(notLoopback, fc.integer({ min: 1, max: 65535 }), (host, port) => {
        expect(() => routeOAuthToLoopbackForTests(`http://${host}:${port}`)).toThrow();
      }),
      { numRuns: 300 },
    );
    expect(() => routeOAuthToLoopbackForTests("https://127.0.0.1:9")).toThrow();
  });
});

describe("scopes asked for", () => {
  it("Google: only the base scopes and the capabilities' own, whatever was granted before (incremental)", async () => {
    const { scopesFor } = await import("../../../src/edge/connectors/oauth/providers.ts");
    const all = new Map(GoogleCapability.options.map((c) => [c, scopesFor("google", [c])]));
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...GoogleCapability.options), { minLength: 1 }),
        fc.array(fc.webUrl()),
        (caps, granted) => {
          const asked = scopesFor("google", caps, granted);
          const allowed = new Set(["openid", "email", ...caps.flatMap((c) => all.get(c) ?? [])]);
          expect(asked.every((s) => allowed.has(s))).toBe(true);
          expect(asked).not.toContain("https://mail.google.com/");
        },
      ),
    );
  });

  it("GitHub: public_repo unless private repositories were ticked", async () => {
    const { scopesFor } = await import("../../../src/edge/connectors/oauth/providers.ts");
    expect(scopesFor("github", ["repo.public"])).toEqual(["public_repo"]);
    expect(scopesFor("github", ["repo.private"])).toEqual(["repo"]);
    expect(GithubCapability.options).toEqual(["repo.public", "repo.private"]);
  });
});
