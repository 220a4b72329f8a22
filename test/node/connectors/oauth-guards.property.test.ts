// The guards of connections as properties: a sealed token opens only with its key and its own row and field,
// and any change to it is refused; the OAuth endpoints move to nothing but loopback http, and by default are
// the real hosts; a connection never asks for a scope its capabilities do not need.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GithubCapability, GoogleCapability } from "../../../src/protocol/connections.ts";

const RING = "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

describe("sealing", () => {
  it("opens to the same text under its context, and under no other context", async () => {
    const { keyRing, open, seal } = await import("../../../src/edge/connectors/oauth/cipher.ts");
    const ring = await keyRing(RING);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 300 }),
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        async (text, context, other) => {
          const sealed = await seal(ring, text, context);
          expect(sealed.includes(text) && text.length > 3).toBe(false);
          expect(await open(ring, "k1", sealed, context)).toBe(text);
          if (other !== context) await expect(open(ring, "k1", sealed, other)).rejects.toThrow();
        },
      ),
      { numRuns: 200 },
    );
  });

  it("any changed character of a sealed value is refused", async () => {
    const { keyRing, open, seal } = await import("../../../src/edge/connectors/oauth/cipher.ts");
    const ring = await keyRing(RING);
    const sealed = await seal(ring, "ya29.planted-access-token", "oauth_tokens:con_x:access");
    await fc.assert(
      fc.asyncProperty(fc.nat(sealed.length - 1), fc.constantFrom(..."ABCxyz019-_."), async (at, ch) => {
        fc.pre(sealed[at] !== ch);
        const changed = `${sealed.slice(0, at)}${ch}${sealed.slice(at + 1)}`;
        await expect(open(ring, "k1", changed, "oauth_tokens:con_x:access")).rejects.toThrow();
      }),
      { numRuns: 150 },
    );
  });

  it("a ring with a short, non-base64, unnamed or repeated key is refused whole", async () => {
    const { keyRing } = await import("../../../src/edge/connectors/oauth/cipher.ts");
    for (const bad of [
      "",
      "k1:AAAA",
      ":AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
      `${RING},${RING}`,
      "k1:!!!",
    ]) {
      await expect(keyRing(bad), bad).rejects.toThrow();
    }
  });
});

describe("provider endpoints", () => {
  it("are the real hosts unless a test entry moved them", async () => {
    const { providerUrl, insecureForTests } = await import(
      "../../../src/edge/connectors/oauth/endpoints.ts"
    );
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
