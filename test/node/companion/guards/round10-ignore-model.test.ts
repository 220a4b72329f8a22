// Never (red team, round 10): the judge takes a secret for ignored where ripgrep reads it. A parent
// repository's .gitignore applied inside a nested repository (rg stops at the `.git`), a .gitignore
// saved with a UTF-8 byte-order mark (rg keeps it in the first pattern), `*.ENV` (rg matches case-exact),
// `*.e[[:alpha:]]v` (a class rg's globset reads otherwise), the same in `.ignore`/`.rgignore` outside a
// repository, and a `.ignore` whitelist that outranks a deeper `.gitignore`. Each layout is confirmed with
// the real `rg` (it prints the secret) before the judge is asked.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { walkFact } from "../../../../src/companion/guards/tree-walk.ts";
import { rgStyle, searchToolStyle } from "../../../../src/policy/walk-styles.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { judgeOnDisk } from "./disk-fixture.ts";

mkdirSync("/tmp/rt10rg", { recursive: true });
const base = mkdtempSync("/tmp/rt10rg/ign-");
const home = join(base, "home");
mkdirSync(home, { recursive: true });
afterAll(() => rmSync(base, { recursive: true, force: true }));

let n = 0;
function layout(files: Record<string, string>, repo: boolean): string {
  const ws = join(base, `ws${++n}`);
  mkdirSync(ws, { recursive: true });
  if (repo) execFileSync("git", ["init", "-q", "."], { cwd: ws });
  for (const [p, body] of Object.entries(files)) {
    mkdirSync(dirname(join(ws, p)), { recursive: true });
    if (p.endsWith("/.git")) execFileSync("git", ["init", "-q", "."], { cwd: dirname(join(ws, p)) });
    else writeFileSync(join(ws, p), body);
  }
  return ws;
}

/** The files `rg --files` (with `extra` options) lists, as ripgrep itself walks, with the fake home. */
function rgFiles(ws: string, extra: string[] = []): string[] {
  // rg exits 1 when it lists nothing.
  const r = spawnSync("rg", ["--files", "--no-config", ...extra], {
    cwd: ws,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg: ${r.stderr}`);
  return r.stdout.toString().split("\n").filter(Boolean).sort();
}

function judge(ws: string, tool: string, input: Record<string, unknown>) {
  // The starter profile that allows a walked recursive search (`rg PATTERN`, the Grep tool).
  return [judgeOnDisk(BALANCED, { tool, input, cwd: ws, home })];
}

const SECRET = "DB_PASSWORD=x\n";
const CASES: [string, Record<string, string>, boolean, string][] = [
  [
    "a parent .gitignore inside a nested repository",
    { ".gitignore": ".env\n*.env\n", "vendor/lib/.git": "", "vendor/lib/prod.env": SECRET, "a.md": "a\n" },
    true,
    "vendor/lib/prod.env",
  ],
  [
    "a .gitignore with a byte-order mark",
    { ".gitignore": "\ufeff*.env\n", "prod.env": SECRET },
    true,
    "prod.env",
  ],
  ["`*.ENV` in .gitignore", { ".gitignore": "*.ENV\n", "prod.env": SECRET }, true, "prod.env"],
  [
    "a POSIX class in .gitignore",
    { ".gitignore": "*.e[[:alpha:]]v\n", "sub/prod.env": SECRET },
    true,
    "sub/prod.env",
  ],
  [
    "`*.ENV` in .ignore outside a repository",
    { ".ignore": "*.ENV\n", "prod.env": SECRET },
    false,
    "prod.env",
  ],
  [
    "a BOM in .rgignore outside a repository",
    { ".rgignore": "\ufeff*.env\n", "prod.env": SECRET },
    false,
    "prod.env",
  ],
  ["a POSIX class in .ignore", { ".ignore": "*.e[[:alpha:]]v\n", "prod.env": SECRET }, false, "prod.env"],
  // Found by the property below (seed -1934039004): rg applies a nested repository's .gitignore even when the
  // walk starts outside any repository, and its `!.env` un-hides `.env`.
  [
    "a whitelist in a nested repository's .gitignore, walked from outside any repository",
    { "c/.git": "", "c/.gitignore": "!.env\n", "c/.env": SECRET, "a.md": "a\n" },
    false,
    "c/.env",
  ],
  [
    "a .ignore whitelist above a deeper .gitignore",
    { ".ignore": "!prod.env\n", "sub/.gitignore": "prod.env\n", "sub/prod.env": SECRET },
    true,
    "sub/prod.env",
  ],
];

describe("ripgrep reads a secret the judge must not take for ignored", () => {
  it.each(CASES)("%s", (_name, files, repo, secret) => {
    const ws = layout(files, repo);
    expect(rgFiles(ws), "rg reads it").toContain(secret);
    for (const r of [
      ...judge(ws, "bash", { command: "rg -n PASSWORD" }),
      ...judge(ws, "Grep", { pattern: "PASSWORD" }),
    ]) {
      expect(r.action, r.why).not.toBe("allow");
      if (r.action === "ask") expect(r.why + r.reasons.join("\n")).toContain(secret.split("/").pop());
    }
  });

  it("a plain ignore file rg reads as the judge does still hides the secret", () => {
    const ws = layout({ ".gitignore": "*.env\n", "prod.env": SECRET, "a.md": "a\n" }, true);
    expect(rgFiles(ws)).not.toContain("prod.env");
    for (const r of judge(ws, "bash", { command: "rg -n PASSWORD" }))
      expect(r.action, r.why + r.reasons.join("\n")).toBe("allow");
  });
});

// Small trees with ignore files drawn from plain and tricky lines, one secret somewhere: whenever the
// real rg lists the secret, the judge's walk must reach it (its read set holds rg's).
const LINES = [
  "*.env",
  "*.ENV",
  "s.env",
  "/s.env",
  "a/",
  "a",
  "a/**",
  "**/b",
  "b/",
  "!s.env",
  "!*.env",
  "!a/",
  "!.env",
  "*.e[n]v",
  "*.e[[:alpha:]]v",
  "\ufeff*.env",
  "s.env ",
  "*.env\r",
  "*",
  "!*",
  "#c",
  "\\!s.env",
  "s?env",
  "s.e*",
  "**/*.env",
  "a/**/s.env",
  "c/",
  "!c/",
  "*.{env,x}",
  "b/s.env",
  "/a/b",
  ".env",
  "!b/",
  "d",
];
const IGNORE_AT = ["", "a", "a/b", "c", "c/d"];
const KINDS = [".gitignore", ".ignore", ".rgignore"];

describe("the judge's walk reads at least what rg --files lists (property, real rg)", () => {
  const root = mkdtempSync(join(base, "prop-"));
  let run = 0;
  it("holds for generated trees and ignore files", () => {
    fc.assert(
      fc.property(
        fc.record({
          rootRepo: fc.boolean(),
          nested: fc.boolean(),
          secretDir: fc.constantFrom(...IGNORE_AT),
          secretName: fc.constantFrom("s.env", ".env"),
          files: fc.array(
            fc.record({
              dir: fc.constantFrom(...IGNORE_AT),
              kind: fc.constantFrom(...KINDS),
              lines: fc.array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 4 }),
            }),
            { maxLength: 4 },
          ),
          hidden: fc.boolean(),
        }),
        (t) => {
          const ws = join(root, `t${++run}`);
          for (const d of IGNORE_AT) mkdirSync(join(ws, d), { recursive: true });
          writeFileSync(join(ws, "a", "b", "plain.md"), "x\n");
          if (t.rootRepo) mkdirSync(join(ws, ".git"));
          if (t.nested) mkdirSync(join(ws, "c", ".git"));
          for (const f of t.files) writeFileSync(join(ws, f.dir, f.kind), `${f.lines.join("\n")}\n`);
          const secret = join(t.secretDir, t.secretName);
          writeFileSync(join(ws, secret), SECRET);
          const listed = rgFiles(ws, t.hidden ? ["--hidden"] : []).includes(secret);
          const style = t.hidden ? searchToolStyle(undefined) : rgStyle(["rg", "x"]);
          const fact = walkFact(ws, style, ws, ".");
          if (listed) expect(fact, `${secret} is read by rg: ${JSON.stringify(t)}`).not.toBeNull();
          rmSync(ws, { recursive: true, force: true });
        },
      ),
      { numRuns: 150 },
    );
  });
});
