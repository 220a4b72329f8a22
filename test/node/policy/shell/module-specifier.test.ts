// A module a program loads by specifier (red team, round 7): node reads `data:`/`file:`/`https:` as URLs
// and a name without `./`, `../` or `/` as a package found through node_modules of every directory above
// the project. Property: whatever the option spelling and the specifier's form, only a file path inside
// the project is allowed; a URL or a package name never is, and explain names the word.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BALANCED, judge, READ_ONLY } from "./policies.ts";

const options = fc.constantFrom(
  "-r",
  "--require",
  "--import",
  "--loader",
  "--experimental-loader",
  "--test-reporter",
  "--test --test-reporter",
);
const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const urls = fc
  .oneof(
    fc.tuple(
      fc.constantFrom("data:text/javascript,", "file://", "file:", "https://x.test/", "node:", "HTTP://x/"),
      name,
    ),
  )
  .map(([s, n]) => `${s}${n}`);
const packages = fc.oneof(
  name,
  fc.tuple(name, name).map(([a, b]) => `${a}/${b}.js`),
  name.map((n) => `@scope/${n}`),
  name.map((n) => `src/${n}.mjs`),
);
const paths = fc.oneof(
  name.map((n) => `./${n}.js`),
  name.map((n) => `./src/${n}.mjs`),
);
const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;
const glue = fc.boolean();

function command(option: string, value: string, glued: boolean): string {
  const last = option.split(" ").at(-1) as string;
  const head = option.split(" ").slice(0, -1);
  const spelled = glued && last.startsWith("--") ? [`${last}=${quote(value)}`] : [last, quote(value)];
  return ["node", ...head, ...spelled, "src/a.js"].join(" ");
}

describe("a module a program loads by specifier", () => {
  it("a URL or a package name never yields allow, and explain names it", () => {
    fc.assert(
      fc.property(options, fc.oneof(urls, packages), glue, (option, value, glued) => {
        if (option.endsWith("--test-reporter") && ["spec", "tap", "dot", "junit", "lcov"].includes(value))
          return;
        const c = command(option, value, glued);
        for (const policy of [READ_ONLY, BALANCED]) {
          const r = judge(policy, c);
          expect(r.action, `${c}: ${r.reasons.join("\n")}`).not.toBe("allow");
        }
        expect(judge(READ_ONLY, c).reasons.join("\n"), c).toContain(value.slice(0, 20));
      }),
      { numRuns: 300 },
    );
  });

  it("a file path in the project stays allowed", () => {
    fc.assert(
      fc.property(options, paths, glue, (option, value, glued) => {
        const c = command(option, value, glued);
        expect(judge(READ_ONLY, c).action, c).toBe("allow");
      }),
      { numRuns: 100 },
    );
  });

  it("node's built-in reporters are understood", () => {
    for (const r of ["spec", "tap", "dot", "junit", "lcov"])
      expect(judge(READ_ONLY, `node --test --test-reporter=${r}`).action, r).toBe("allow");
  });
});
