// Red team round 17: a file-name search whose pattern leaves its directory through a brace alternative
// (`{src,/home/u/.ssh}/*`, `{..,src}/*`, `{,.}./*`) or a `..` spelled as a class or escape (`.[.]`,
// `[.][.]`) was allowed; Gemini's glob (node-glob) listed a key and the workspace's parent. Each brace
// alternative is now its own search, and a directory segment that may stand for `..` climbs. The oracle:
// node-glob itself, walking a real tree with Gemini's options.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { globSync } from "glob";
import { afterAll, describe, expect, it } from "vitest";
import { type Profile, starterPolicy } from "../../../src/companion/local-policy/starter.ts";
import { judgeCall } from "../../../src/policy/judge-call.ts";
import { canonicalCalls } from "../../../src/policy/tool-names.ts";
import { compile, user } from "./helpers.ts";

const ROOT = realpathSync(mkdtempSync(join(tmpdir(), "airlock-glob17-")));
const WS = join(ROOT, "ws");
for (const f of [
  "ws/src/a.ts",
  "ws/test/a.test.ts",
  "ws/.github/ci.yml",
  "outside.txt",
  "home/.ssh/id_ed25519",
]) {
  mkdirSync(join(ROOT, f, ".."), { recursive: true });
  writeFileSync(join(ROOT, f), "x\n");
}
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

const POLICIES = {
  balanced: compile(user(starterPolicy("balanced"))),
  autonomous: compile(user(starterPolicy("autonomous"))),
} satisfies Partial<Record<Profile, unknown>>;

const judged = (pattern: string, tool = "glob", profile: keyof typeof POLICIES = "balanced") =>
  judgeCall(
    POLICIES[profile],
    { tool, input: { pattern }, cwd: WS, home: join(ROOT, "home") },
    { hasUI: true },
  ).record.action;

/** What Gemini's glob (node-glob, cwd = workspace, dot files, no containment check) really lists. */
const leaves = (pattern: string) =>
  globSync(pattern, { cwd: WS, dot: true, absolute: true }).some((p) => p !== WS && !p.startsWith(`${WS}/`));

const SSH = join(ROOT, "home/.ssh");

describe("brace alternatives and spelled-out `..` in a file-name search", () => {
  it.each([
    `{src,${SSH}}/*`,
    `{${join(ROOT, "home")},src}/**/*`,
    "{..,src}/*",
    "{..,src}/**/*",
    "{,.}./*",
    "{.,..}/*",
    ".[.]/home/.ssh/*",
    "[.][.]/*",
    ".[.]/.[.]/*",
    "\\.\\./*",
    ".\\./*",
    "[.-.][.-.]/*",
  ])("%s is not allowed, and node-glob does list outside", (pattern) => {
    expect(leaves(pattern)).toBe(true);
    for (const tool of ["glob", "Glob", "find"])
      for (const profile of ["balanced", "autonomous"] as const)
        expect(judged(pattern, tool, profile), `${tool} ${profile}`).not.toBe("allow");
  });

  it.each(["src/*", "**/*.{ts,tsx}", "{src,test}/**/*.ts", "**/.*", ".github/**/*.yml", "src/{a,b}.ts"])(
    "%s stays allowed",
    (pattern) => {
      expect(leaves(pattern)).toBe(false);
      expect(judged(pattern, "Glob")).toBe("allow");
    },
  );

  it("each brace alternative is its own search, from the directory it names", () => {
    const searches = canonicalCalls("Glob", { pattern: "{src,/home/u/.ssh}/*" }).map((c) => c.input);
    expect(searches).toEqual([{ pattern: "src/*" }, { pattern: "*", path: "/home/u/.ssh" }]);
    expect(canonicalCalls("find", { pattern: ".[.]/x/*" })[0]?.input).toEqual({
      pattern: ".[.]/x/*",
      path: "/",
    });
  });

  it("property: a pattern whose real matches leave the workspace is never allowed", () => {
    const segment = fc.constantFrom(
      "src",
      "..",
      ".",
      "*",
      "**",
      ".*",
      ".?",
      "?.",
      "??",
      "[.][.]",
      ".[.]",
      "[.]?",
      "\\.\\.",
      "[!a][!a]",
      "{..,src}",
      "{,.}.",
      "{src,..}",
      "{.,src}",
      "home",
      ".ssh",
      "{a,b}",
      SSH,
      "/",
    );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (segments) => {
        const pattern = segments.join("/").replace(/\/{2,}/g, "/");
        if (leaves(pattern)) expect(judged(pattern), pattern).not.toBe("allow");
      }),
      { numRuns: 400 },
    );
    // Each run globs the real disk (the oracle): about 25 s on a loaded 2-core machine, so no 30 s default.
  }, 180_000);
});
