// filterGlobMatches against the programs themselves: every file real rg (`-g`, `--iglob`) and GNU grep
// (`--include`) select with a random filter glob is one the judge's walk counts as selected. The files
// include dotfiles at the root and below, so `*` meeting a leading dot is tried on every run.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filterGlobMatches } from "../../../src/policy/filter-globs.ts";
import { has } from "./shell/proven-case.ts";

const FILES = [
  ".env",
  "a.env",
  "prod.ENV",
  ".e",
  "x.js",
  "src/.env",
  "src/b.ts",
  "src/.envrc",
  "src/deep/.env.local",
];
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "airlock-filter-glob-"));
  for (const f of FILES) {
    mkdirSync(join(root, dirname(f)), { recursive: true });
    writeFileSync(join(root, f), "x\n");
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Files a program lists, relative to the root. */
function listed(program: string, args: readonly string[]): string[] {
  const r = spawnSync(program, args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return r.stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.replace(/^\.\//, ""));
}

const token = fc.constantFrom("*", "?", ".", "e", "n", "v", "E", "{env,js}", "[e]", "[!x]", "src/", "**/");
const glob = fc.array(token, { minLength: 1, maxLength: 5 }).map((t) => t.join(""));

describe("filter globs as rg and grep match them", () => {
  it.runIf(has("rg"))("every file rg -g / --iglob selects is selected by filterGlobMatches", () => {
    let dotfiles = 0;
    fc.assert(
      fc.property(glob, fc.boolean(), (g, insensitive) => {
        const files = listed("rg", ["--files", "--hidden", "--no-ignore", insensitive ? "--iglob" : "-g", g]);
        for (const f of files) {
          if (basename(f).startsWith(".")) dotfiles++;
          expect(filterGlobMatches(g, basename(f), f), `${g} selects ${f}`).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
    expect(dotfiles).toBeGreaterThan(0);
  });
  it("every file grep -r --include selects is selected by filterGlobMatches", () => {
    fc.assert(
      fc.property(glob, (g) => {
        for (const f of listed("grep", ["-rl", `--include=${g}`, "", "."]))
          expect(filterGlobMatches(g, basename(f), f), `${g} selects ${f}`).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
  it("a leading dot is no barrier; a different extension still is", () => {
    expect(filterGlobMatches("*.env", ".env", ".env")).toBe(true);
    expect(filterGlobMatches("*.{js,env}", ".env", ".env")).toBe(true);
    expect(filterGlobMatches("*.ENV", ".env", ".env")).toBe(true);
    expect(filterGlobMatches("src/*.env", ".env", "src/.env")).toBe(true);
    expect(filterGlobMatches("*.ts", ".env", ".env")).toBe(false);
    expect(filterGlobMatches("*.{ts,js}", ".env", "src/.env")).toBe(false);
  });
});
