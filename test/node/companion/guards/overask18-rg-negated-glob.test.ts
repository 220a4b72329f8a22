// Over-ask, round 18: `rg TODO -g '!dist'` asked as "the recursive read reaches .git/config". A `!glob` only
// excludes: a path no glob whitelists falls through to rg's hidden and ignore rules, so real rg still skips
// .git/ and hidden files (shown below); only a whitelisting glob, --hidden or -uu reach them. Attacks first.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { AUTONOMOUS, BALANCED } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa18r-")));
const home = join(base, "home");
mkdirSync(home);
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A repository with src/a.ts, a dist/ build and a .env beside them (not ignored): hidden all the same. */
const ws = join(base, "ws");
mkdirSync(join(ws, "src"), { recursive: true });
mkdirSync(join(ws, "dist"));
writeFileSync(join(ws, "src", "a.ts"), "export const a = 1; // TODO\n");
writeFileSync(join(ws, "dist", "a.js"), "// TODO\n");
writeFileSync(join(ws, ".env"), "TODO_TOKEN=RGSECRET18\n");
git(ws, "init", "-q");

const disk = diskCheck({ env: {} });
const actions = (command: string) =>
  [BALANCED, AUTONOMOUS].map((p) =>
    judgeOnDisk(p, { tool: "bash", input: { command }, cwd: ws, home }, { disk }),
  );
const rg = spawnSync("rg", ["--version"]).status === 0;
// stdin not a pipe: rg then searches the working directory, as in an agent's shell.
const run = (command: string) =>
  spawnSync("bash", ["-c", command], { cwd: ws, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).stdout;

describe("globs and flags that make rg read hidden files still ask", () => {
  it.each([
    "rg TODO -g '*'",
    "rg TODO -g '!dist' --hidden",
    "rg TODO -uu -g '!dist'",
    "rg TODO -g '!dist' -g '.env'",
  ])("%s", (command) => {
    if (rg) expect(run(command)).toContain("RGSECRET18");
    for (const r of actions(command)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
  });
});

describe("negated globs alone", () => {
  it.each(["rg TODO -g '!dist'", "rg -n TODO --glob '!dist/**' --iglob '!*.md'"])(
    "%s is allowed",
    (command) => {
      if (rg) expect(run(command)).not.toContain("RGSECRET18");
      for (const r of actions(command)) expect(r.action, `${command}\n${r.why}`).toBe("allow");
    },
  );
});
