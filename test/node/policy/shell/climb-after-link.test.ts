// Red team round 12: `..` after a symlink, which the kernel resolves from where the link leads. A
// program's own chdir() (env -C, git -C, an agent's workdir) is physical, and bash's logical `cd` falls
// back to chdir() with the path as written when the lexical target is missing: with a committed link
// `sshlink -> ~/.ssh`, `cd sshlink/../docs2 && cat notes.txt` and `env -C sshlink/.. cat private.txt`
// read the home directory. Real bash shows it; the judge never places such a directory.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { climbsAfterName } from "../../../../src/policy/paths.ts";
import { canonicalCalls } from "../../../../src/policy/tool-names.ts";
import { BALANCED, judge, READ_ONLY, STRICT_PROFILES } from "./policies.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt12-climb-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("`..` after a directory name in a directory a program moves to", () => {
  it("real bash and env land in the link's parent, not the project", () => {
    const home = join(base, "home");
    const proj = join(base, "proj");
    mkdirSync(join(home, ".ssh"), { recursive: true });
    mkdirSync(join(home, "docs2"), { recursive: true });
    mkdirSync(proj, { recursive: true });
    writeFileSync(join(home, "private.txt"), "PRIVATE-OUTSIDE\n");
    writeFileSync(join(home, "docs2", "notes.txt"), "HOME-DOCS2\n");
    symlinkSync(join(home, ".ssh"), join(proj, "sshlink"));
    const run = (command: string) =>
      spawnSync("bash", ["-c", command], { cwd: proj, encoding: "utf8" }).stdout;
    expect(run("cd sshlink/../docs2 && cat notes.txt")).toContain("HOME-DOCS2");
    expect(run("env -C sshlink/.. cat private.txt")).toContain("PRIVATE-OUTSIDE");
  });

  it("never places it: the command asks", () => {
    for (const command of [
      "cd sshlink/../docs2 && cat notes.txt",
      "pushd sshlink/../docs2 && cat notes.txt",
      "( cd sshlink/../docs2 && cat notes.txt )",
      "env -C sshlink/.. cat private.txt",
      "env --chdir=sshlink/.. cat private.txt",
      "git -C sshlink/.. show HEAD:notes.md",
      "git -C sshlink/.. status",
    ])
      for (const [name, policy] of [["read-only", READ_ONLY], ...STRICT_PROFILES] as const)
        expect(judge(policy, command).action, `${name}: ${command}`).not.toBe("allow");
  });

  it("an agent's workdir with `link/..` is not understood", () => {
    for (const [tool, input] of [
      ["shell", { command: ["bash", "-lc", "cat private.txt"], workdir: "sshlink/.." }],
      ["exec_command", { cmd: "cat private.txt", workdir: "sshlink/.." }],
      ["apply_patch", { input: "*** Begin Patch\n*** Add File: x\n+y\n*** End Patch", workdir: "a/../b" }],
    ] as const) {
      const calls = canonicalCalls(tool, input as Record<string, unknown>);
      expect(
        calls.some((c) => c.notUnderstood.some((r) => r.includes("climbs"))),
        tool,
      ).toBe(true);
    }
    expect(
      canonicalCalls("shell", { command: ["bash", "-lc", "ls"], workdir: "src" })[0]?.notUnderstood,
    ).toEqual([]);
  });

  it("climbsAfterName: only a `..` after a name", () => {
    expect(["a/..", "sshlink/../x", "./a/../b", "/x/y/../z"].every(climbsAfterName)).toBe(true);
    expect(["..", "../x", "../../a/b", "./..", "a/b", "/abs/path"].some(climbsAfterName)).toBe(false);
  });

  it("ordinary moves stay allowed", () => {
    for (const command of ["cd src && cat a.txt", "env -C src cat a.txt", "git -C src status"])
      expect(judge(BALANCED, command).action, command).toBe("allow");
  });
});
