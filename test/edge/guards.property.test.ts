// Property tests of the edge's guards: bad input never yields a 500 or a change; secrets never survive redaction;
// token checks never accept what they did not issue; deny grants always win.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redact } from "../../src/edge/audit/redact.ts";
import { verifyToken } from "../../src/edge/auth/tokens.ts";
import { openDb } from "../../src/edge/db/client.ts";
import { loadShellParser } from "../../src/edge/shims/mvdan-sh-deferred.ts";
import { grantUnitsOf, matchGrants, ruleCovers } from "../../src/policy/index.ts";
import { device } from "./approvals-helpers.ts";
import { api } from "./helpers.ts";

const jsonValue = fc.jsonValue({ maxDepth: 3 });

async function count(table: string): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
  return row?.n ?? 0;
}

describe("bad input", () => {
  it("arbitrary JSON bodies to pairing/bind get a 4xx and create no device", async () => {
    const before = await count("devices");
    await fc.assert(
      fc.asyncProperty(jsonValue, async (body) => {
        const res = await api("/v1/pairing/bind", {
          method: "POST",
          headers: { "content-type": "application/json", "cf-connecting-ip": "fuzz" },
          body: JSON.stringify(body),
        });
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        const envelope = (await res.json()) as { error?: { code?: string } };
        expect(typeof envelope.error?.code).toBe("string");
      }),
      { numRuns: 60 },
    );
    expect(await count("devices")).toBe(before);
  });

  it("arbitrary decision requests get 200, 202 or a 4xx, never a 500", async () => {
    const d = await device();
    const shaped = fc.record(
      {
        call_id: fc.string({ maxLength: 40 }),
        session_id: fc.string({ maxLength: 40 }),
        agent: fc.oneof(fc.record({ id: fc.string(), name: fc.string() }), jsonValue),
        tool: fc.oneof(fc.constantFrom("bash", "read", "write", "webfetch", "mcp__x__y"), fc.string()),
        input: fc.oneof(
          fc.record({ command: fc.string() }),
          fc.record({ path: fc.string() }),
          fc.record({ url: fc.string() }),
          jsonValue,
        ),
        cwd: fc.string(),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(shaped, jsonValue), async (body) => {
        const res = await api("/v1/decisions?wait=false", { method: "POST", headers: d.headers, json: body });
        expect([200, 202, 400]).toContain(res.status);
      }),
      { numRuns: 80 },
    );
  });
});

describe("tokens", () => {
  it("no string that was not issued verifies", async () => {
    const db = openDb(env.DB);
    const tokenish = fc.oneof(
      fc.string(),
      fc
        .tuple(fc.stringMatching(/^[A-Za-z0-9_-]{16}$/), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/))
        .map(([id, secret]) => `alk_${id}.${secret}`),
    );
    await fc.assert(
      fc.asyncProperty(tokenish, async (token) => {
        expect(await verifyToken(db, env.TOKEN_PEPPER, token)).toBeNull();
      }),
      { numRuns: 100 },
    );
  });
});

describe("redaction", () => {
  it("a token or bearer value anywhere in audit details never survives", () => {
    const secretPart = fc.stringMatching(/^[A-Za-z0-9_-]{20,43}$/);
    fc.assert(
      fc.property(secretPart, fc.string(), fc.string(), (secret, before, after) => {
        const details = {
          note: `${before} alk_abcdefghijklmnop.${secret} ${after}`,
          nested: [{ header: `Bearer ${secret}` }],
          token: secret,
          pairing: { code: secret },
        };
        expect(JSON.stringify(redact(details))).not.toContain(secret);
      }),
      { numRuns: 200 },
    );
  });
});

describe("grants", () => {
  const cwd = "/work/repo";
  const commands = [
    "git status",
    "git status -s",
    "git push --force origin main",
    "rm -f x",
    "ls src",
    "$X y",
  ];
  const units = (command: string) => grantUnitsOf({ tool: "bash", input: { command }, cwd });
  const rule = fc.record({
    id: fc.string({ minLength: 1, maxLength: 4 }),
    agentId: fc.constantFrom("a", "b", "*"),
    capability: fc.constantFrom("read", "exec"),
    match: fc.constantFrom("exact" as const, "prefix" as const),
    pattern: fc.constantFrom("git status *", "rm *", "ls *", "git *", null),
    scopeHash: fc.constantFrom(...commands.map((c) => units(c)[0]?.hash ?? null)),
    versionRange: fc.constant(null),
    effect: fc.constantFrom("allow" as const, "deny" as const),
  });

  it("a deny covering any unit wins; an allow covers every unit, each by a rule for that agent", async () => {
    await loadShellParser();
    fc.assert(
      fc.property(
        fc.array(rule, { maxLength: 8 }),
        fc.constantFrom("a", "b"),
        fc.constantFrom(...commands),
        (rules, agentId, command) => {
          const subject = { agentId, units: units(command) };
          const hit = matchGrants(rules, subject);
          const mine = rules.filter((r) => r.agentId === agentId || r.agentId === "*");
          const denied = subject.units.some((u) => mine.some((r) => r.effect === "deny" && ruleCovers(r, u)));
          if (denied) expect(hit?.effect).toBe("deny");
          if (hit?.effect === "allow") {
            for (const u of subject.units) {
              expect(u.coverable).toBe(true);
              expect(mine.some((r) => r.effect === "allow" && ruleCovers(r, u))).toBe(true);
            }
          }
          if (!hit) expect(denied).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});
