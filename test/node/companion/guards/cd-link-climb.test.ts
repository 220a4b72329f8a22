// Issue 20: `cd` through a link and back. bash's `cd` is logical: `cd link/..` checks that `link` is a
// directory and lands on the lexical result, the directory it started in, so a relative read after it is the
// workspace's (it asked, the directory unknown). `cd -P` makes $PWD the physical path, so `cd -P link/..` and
// a later `cd ..` after `cd -P link` climb out of the link's target: with `plink -> ws/a/b` and `a/x` a link
// out, `cd -P plink && cd .. && cat x` read the outside file and was allowed. Each proven with real bash.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAUTIOUS } from "../../policy/shell/policies.ts";
import { has } from "../../policy/shell/proven-case.ts";
import { judgeOnDisk, STARTERS } from "./disk-fixture.ts";

let base: string;
let ws: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-cd-climb-")));
  ws = join(base, "ws");
  const out = join(base, "out");
  mkdirSync(join(out, "target"), { recursive: true });
  mkdirSync(join(ws, "a", "b"), { recursive: true });
  writeFileSync(join(out, "x"), "OUTSIDE-X\n");
  writeFileSync(join(out, "README.md"), "OUTSIDE-README\n");
  writeFileSync(join(ws, "x"), "WS-X\n");
  writeFileSync(join(ws, "README.md"), "WS-README\n");
  writeFileSync(join(ws, "file"), "plain\n");
  symlinkSync(join(out, "target"), join(ws, "link"));
  symlinkSync(join(ws, "a", "b"), join(ws, "plink"));
  symlinkSync(join(out, "x"), join(ws, "a", "x"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function run(shell: string, command: string): string {
  return spawnSync(shell, ["-c", command], { cwd: ws, encoding: "utf8" }).stdout;
}

const every = [["cautious", CAUTIOUS], ...STARTERS] as const;
function actions(command: string): string[] {
  return every.map(([name, policy]) => {
    const r = judgeOnDisk(policy, {
      tool: "bash",
      input: { command },
      cwd: ws,
      workspace: ws,
      home: join(base, "home"),
    });
    return `${name}: ${r.action}`;
  });
}

describe("logical `cd link/..` lands where it started", () => {
  it("real bash (and dash) read the workspace's file", () => {
    for (const command of [
      "cd link/.. && cat README.md",
      "cd link/../a/.. && cat x",
      "cd a/b/../.. && cat x",
    ]) {
      expect(run("bash", command), command).toMatch(/^WS-/);
      if (has("dash")) expect(run("dash", command), `dash: ${command}`).toMatch(/^WS-/);
    }
    // A name that is no directory: cd fails both ways, and the shell stays where it was.
    expect(run("bash", "cd file/.. ; pwd").trim()).toBe(ws);
  });

  it("is judged in the workspace: allowed under every profile", () => {
    for (const command of ["cd link/.. && cat README.md", "cd a/b/../.. && cat x", "cd link/.. && cat x"])
      expect(actions(command), command).toEqual(every.map(([name]) => `${name}: allow`));
  });

  it("a name after the climb stays unknown (it may be chdir()ed through the link)", () => {
    for (const command of ["cd link/../a && cat x", "cd link/../a/.. && cat x"])
      expect(
        actions(command).some((a) => a.endsWith("allow")),
        command,
      ).toBe(false);
  });
});

describe("physical `cd -P` leaves through the link's target", () => {
  it("real bash reads the outside file", () => {
    for (const command of [
      "cd -P link/.. && cat x",
      "set -P; cd link/.. && cat x",
      "set -o physical; cd link/.. && cat x",
      "cd -P plink && cd .. && cat x",
      "cd plink && cd -P . && cd .. && cat x",
    ])
      expect(run("bash", command), command).toBe("OUTSIDE-X\n");
    // The logical one stays: plink's parent is the workspace.
    expect(run("bash", "cd plink && cd .. && cat x")).toBe("WS-X\n");
  });

  it("asks under every profile", () => {
    for (const command of [
      "cd -P link/.. && cat x",
      "set -P; cd link/.. && cat x",
      "set -o physical; cd link/.. && cat x",
      "cd -P plink && cd .. && cat x",
      "cd -P plink; cd ..; cat x",
      "cd plink && cd -P . && cd .. && cat x",
      "cd -LP plink && cd .. && cat x",
    ])
      expect(
        actions(command).some((a) => a.endsWith("allow")),
        command,
      ).toBe(false);
    expect(actions("cd plink && cd .. && cat x")).toEqual(every.map(([name]) => `${name}: allow`));
  });
});
