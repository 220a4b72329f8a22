// Redaction rules: every credential form the issue names is masked, in any surrounding text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { carriesSecret, REDACTED, redactAll, redactText, redactValue } from "../../../src/policy/redact.ts";
import { REDACTION_NOTE } from "../../../src/protocol/redaction.ts";

const forms: [string, (s: string) => string, string][] = [
  ["mysql -p", (s) => `mysql -u root -p${s} app`, "Pw0rdMysql"],
  ["mysqldump -p", (s) => `mysqldump -p'${s}' app`, "Pw0rdDump"],
  ["curl -u", (s) => `curl -u alice:${s} https://x.example`, "Pw0rdCurl"],
  ["curl --user=", (s) => `curl --user=alice:${s} https://x.example`, "Pw0rdCurl2"],
  ["X-Api-Key header", (s) => `curl -H 'X-Api-Key: ${s}' https://x.example`, "KeyValue123"],
  ["Authorization Bearer", (s) => `curl -H "Authorization: Bearer ${s}" x`, "BearerValue123"],
  ["bare Bearer", (s) => `token is Bearer ${s} ok`, "BareBearer123"],
  ["Cookie header", (s) => `curl -H 'Cookie: sid=${s}' x`, "CookieValue123"],
  ["JSON password", (s) => `curl -d '{"password": "${s}"}' x`, "JsonPw0rd"],
  ["JSON api_key", (s) => `{"api_key":"${s}","n":1}`, "JsonKey123"],
  ["--password flag", (s) => `psql --password ${s}`, "FlagPw0rd"],
  ["env assignment", (s) => `GITHUB_TOKEN=${s} make`, "EnvTok123"],
  ["URL userinfo", (s) => `git clone https://bob:${s}@git.example/r`, "UserInfo123"],
  ["URL query", (s) => `curl https://x.example/a?api_key=${s}`, "QueryKey123"],
  ["sk_live", (s) => `STRIPE=${s}`, "sk_live_4eC39HqLyjWDarjtT1zdp7dc"],
  ["ghp_", (s) => `mcp__x__${s}`, "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"],
  ["xoxb-", (s) => `slack ${s}`, "xoxb-1234567890-abcdefghijklmnop"],
  ["AKIA", (s) => `aws ${s}`, "AKIAIOSFODNN7EXAMPLE"],
];

describe("redactText", () => {
  it.each(forms)("masks %s", (_name, make, secret) => {
    const out = redactText(make(secret));
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });

  it("masks each form whatever text surrounds it", () => {
    const safe = fc.string({ unit: fc.constantFrom("a", "b", " ", "/", ".", "-", "1"), maxLength: 30 });
    fc.assert(
      fc.property(fc.constantFrom(...forms), safe, safe, ([, make, secret], before, after) => {
        expect(redactText(`${before} ${make(secret)} ${after}`)).not.toContain(secret);
      }),
    );
  });

  it("leaves ordinary commands alone", () => {
    for (const text of [
      "git status",
      "sort -u names.txt",
      "mysql -p app",
      "npm test -- --run",
      "ls -la src",
    ]) {
      expect(redactText(text)).toBe(text);
      expect(carriesSecret(text)).toBe(false);
    }
  });
});

it("the wire's redaction note names the one marker", () => {
  expect(REDACTION_NOTE.marker).toBe(REDACTED);
});

describe("redactValue", () => {
  it("masks secret-named JSON keys and secret strings at any depth, without recursion", () => {
    const value = {
      password: "p",
      nested: {
        api_key: "k",
        Authorization: "Bearer x",
        cookie: "c",
        list: [{ token: "t" }, "ghp_A1b2C3d4E5f6G7h8I9j0K1l2"],
      },
      ok: true,
      secret_present: false,
    };
    expect(redactValue(value)).toEqual({
      password: REDACTED,
      nested: {
        api_key: REDACTED,
        Authorization: REDACTED,
        cookie: REDACTED,
        list: [{ token: REDACTED }, REDACTED],
      },
      ok: true,
      secret_present: false,
    });
    const digest = "a".repeat(64);
    expect(redactValue({ scope_hashes: [digest], scope_hash: digest, other: digest })).toEqual({
      scope_hashes: [digest],
      scope_hash: digest,
      other: REDACTED,
    });
    let deep: unknown = "x";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => redactValue(deep)).not.toThrow();
  });
});

describe("the guarded redaction", () => {
  it("masks exactly what every pass run unconditionally masks", () => {
    // Fragments of every pattern (names, prefixes, separators, hex runs) glued in random order, so
    // the guards are exercised on texts that almost match.
    const fragment = fc.constantFrom(
      ...["://", "@", "?", "=", ":", " ", "-", "--", '"', "'", "_", ".", "a", "Z", "9", "/", "<", ">"],
      ...["password", "PASS", "pwd", "token", "Secret", "api-key", "apikey", "AUTH", "cookie", "credential"],
      ...["bearer ", "Basic ", "mysql -p", "curl -u ", "wget --user=", "ghp_", "github_pat_", "sk-", "xoxb-"],
      ...[
        "AKIA",
        "ASIA",
        "alk_",
        "eyJ",
        "sk_live_",
        "pk_test_",
        "0123456789abcdef0123",
        "ABCDEF0123456789abcd",
      ],
      ...["https://", "x.example", "redacted", "Authorization: ", "X-Api-Key: ", '{"password": "'],
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 24 }), (parts) => {
        const text = parts.join("");
        expect(redactText(text)).toBe(redactAll(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it("returns a plain command unchanged without running the passes", () => {
    expect(redactText("git status && npm run build | grep -v x")).toBe(
      "git status && npm run build | grep -v x",
    );
  });
});
