// Which passkey RP ID a host uses (src/edge/auth/relying-party.ts): its own hostname by default; the shared RP ID
// for the hosts under it and the listed related origins, and never for anything else (a look-alike name, another
// port or scheme of a listed origin, a listed origin's subdomain).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { relatedOrigins, relyingPartyFor } from "../../../src/edge/auth/relying-party.ts";

const SHARED = {
  AIRLOCK_PASSKEY_RP_ID: "Airlock.Example.",
  AIRLOCK_PASSKEY_ORIGINS:
    "https://airlock-dashboard.pages.dev, https://airlock.example.workers.dev/x?y, ftp://nope.example, junk",
};

describe("relyingPartyFor", () => {
  it.each([
    [{}, "http://localhost:8787/v1/x", "localhost"],
    [{}, "https://airlock-dashboard.pages.dev/v1/x", "airlock-dashboard.pages.dev"],
    [SHARED, "https://airlock.example/v1/x", "airlock.example"],
    [SHARED, "https://phone.airlock.example/v1/x", "airlock.example"],
    [SHARED, "https://airlock-dashboard.pages.dev/v1/x", "airlock.example"],
    [SHARED, "https://airlock.example.workers.dev/v1/x", "airlock.example"],
    // Look-alikes and near misses keep their own RP ID.
    [SHARED, "https://evilairlock.example/v1/x", "evilairlock.example"],
    [SHARED, "https://airlock.example.evil.test/v1/x", "airlock.example.evil.test"],
    [SHARED, "http://airlock-dashboard.pages.dev/v1/x", "airlock-dashboard.pages.dev"],
    [SHARED, "https://airlock-dashboard.pages.dev:8443/v1/x", "airlock-dashboard.pages.dev"],
    [SHARED, "https://x.airlock-dashboard.pages.dev/v1/x", "x.airlock-dashboard.pages.dev"],
  ])("%j at %s → %s", (env, url, rpID) => {
    const rp = relyingPartyFor(env, url);
    expect(rp.rpID).toBe(rpID);
    expect(rp.origin).toBe(new URL(url).origin);
  });

  it("lists only http(s) origins, normalised, once each", () => {
    expect(relatedOrigins(SHARED)).toEqual([
      "https://airlock-dashboard.pages.dev",
      "https://airlock.example.workers.dev",
    ]);
    expect(relatedOrigins({})).toEqual([]);
  });

  it("never gives the shared RP ID to a host outside its domain and the list", () => {
    const label = fc.stringMatching(/^[a-z]([a-z0-9-]{0,10}[a-z0-9])?$/);
    fc.assert(
      fc.property(
        fc.array(label, { minLength: 1, maxLength: 3 }),
        // Near the shared names, where a mistake would be.
        fc.constantFrom(
          "",
          ".airlock.example",
          "airlock.example",
          ".pages.dev",
          "-dashboard.pages.dev",
          ".example",
        ),
        fc.constantFrom("http", "https"),
        (labels, tail, scheme) => {
          const host = `${labels.join(".")}${tail}`;
          const url = `${scheme}://${host}/v1/passkeys/step-up/options`;
          const listed = relatedOrigins(SHARED).includes(new URL(url).origin);
          const under = host === "airlock.example" || host.endsWith(".airlock.example");
          const { rpID } = relyingPartyFor(SHARED, url);
          expect(rpID).toBe(listed || under ? "airlock.example" : new URL(url).hostname);
        },
      ),
      { numRuns: 500 },
    );
  });
});
