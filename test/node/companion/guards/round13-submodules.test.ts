// Over-ask (round 13): a repository with submodules made every git read that may enter them ask, even
// `git status` with plain, checked-out submodules inside the workspace. Git runs in each submodule with that
// repository's own configuration and hooks, so a plain one is allowed and one whose configuration or hooks
// run programs, or whose repository lies outside the workspace, still asks.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt13-sub-")));
const home = join(base, "home");
const lib = join(base, "lib");
mkdirSync(home, { recursive: true });
mkdirSync(lib, { recursive: true });
writeFileSync(join(lib, "x.txt"), "lib\n");
git(lib, "init", "-q");
git(lib, "add", ".");
git(lib, "commit", "-q", "-m", "lib");
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A workspace with the submodule `lib` checked out (its repository in .git/modules/lib). */
function workspace(name: string): string {
  const ws = join(base, name);
  mkdirSync(ws);
  writeFileSync(join(ws, "a.txt"), "hello\n");
  git(ws, "init", "-q");
  git(ws, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib");
  git(ws, "add", ".");
  git(ws, "commit", "-q", "-m", "ws");
  return ws;
}

function judge(ws: string, command: string, env: NodeJS.ProcessEnv = {}) {
  const disk = diskCheck({ env: { HOME: home, ...env } });
  return [CAUTIOUS, BALANCED].map((p) =>
    judgeOnDisk(p, { tool: "bash", input: { command }, cwd: ws, home }, { disk }),
  );
}

/** Units that run git inside each checked-out submodule. */
const ENTERING = ["git status", "git diff", "git diff --cached", "git status --short"];

describe("plain submodules", () => {
  it("allows git status, log and diff with plain checked-out submodules", () => {
    const ws = workspace("plain");
    for (const command of [...ENTERING, "git log --oneline"])
      for (const r of judge(ws, command)) expect(r.action, `${command}\n${r.why}`).toBe("allow");
    // A change in the submodule's work tree: git diff prints `Subproject commit …-dirty` only.
    writeFileSync(join(ws, "lib", "x.txt"), "changed\n");
    expect(execFileSync("git", ["diff"], { cwd: ws, encoding: "utf8" })).not.toContain("changed");
    for (const command of ["git status", "git diff"])
      for (const r of judge(ws, command)) expect(r.action, `${command}\n${r.why}`).toBe("allow");
  });

  it("allows a submodule that is not checked out", () => {
    const ws = workspace("absent");
    rmSync(join(ws, "lib"), { recursive: true, force: true });
    mkdirSync(join(ws, "lib"));
    for (const r of judge(ws, "git status")) expect(r.action, r.why).toBe("allow");
  });

  it("still asks where git prints what the submodule holds or the unit may recurse (show, log -p, grep)", () => {
    const ws = workspace("printers");
    for (const command of ["git show", "git log -p", "git grep hello"])
      for (const r of judge(ws, command)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
  });
});

describe("submodules that run programs or lead out", () => {
  it("real git runs the submodule's core.fsmonitor on git status", () => {
    const ws = workspace("fsmonitor");
    const marker = join(base, "PWNED");
    git(join(ws, "lib"), "config", "core.fsmonitor", `touch ${marker}; false`);
    execFileSync("git", ["status"], { cwd: ws, stdio: "ignore" });
    expect(existsSync(marker)).toBe(true);
    for (const command of ENTERING)
      for (const r of judge(ws, command)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
    // git log enters no submodule.
    for (const r of judge(ws, "git log --oneline")) expect(r.action, r.why).toBe("allow");
    expect(judge(ws, "git status")[0]?.why).toContain("core.fsmonitor");
  });

  it("asks for a submodule's read-only hook, a filter, a moved work tree", () => {
    const hook = workspace("hook");
    const hooks = join(hook, ".git", "modules", "lib", "hooks");
    writeFileSync(join(hooks, "post-index-change"), "#!/bin/sh\ntouch PWNED\n");
    chmodSync(join(hooks, "post-index-change"), 0o755);
    const filter = workspace("filter");
    git(join(filter, "lib"), "config", "filter.x.clean", "touch PWNED");
    const moved = workspace("moved");
    git(join(moved, "lib"), "config", "core.worktree", home);
    for (const ws of [hook, filter, moved])
      for (const r of judge(ws, "git status")) expect(r.action, `${ws}\n${r.why}`).not.toBe("allow");
  });

  it("asks when the submodule's repository lies outside the workspace", () => {
    const ws = workspace("outside");
    const elsewhere = join(base, "elsewhere-modules");
    renameSync(join(ws, ".git", "modules", "lib"), elsewhere);
    git(elsewhere, "config", "core.worktree", join(ws, "lib"));
    writeFileSync(join(ws, "lib", ".git"), `gitdir: ${elsewhere}\n`);
    execFileSync("git", ["status"], { cwd: ws, stdio: "ignore" });
    for (const r of judge(ws, "git status")) expect(r.action, r.why).not.toBe("allow");
  });

  it("asks when a user's configuration makes git print the submodules' diffs or summaries", () => {
    const ws = workspace("userconfig");
    const global = join(base, "gitconfig");
    writeFileSync(global, "[diff]\n\tsubmodule = diff\n[status]\n\tsubmoduleSummary = true\n");
    for (const command of ["git diff", "git status"])
      for (const r of judge(ws, command, { GIT_CONFIG_GLOBAL: global }))
        expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
  });

  it("asks for a nested submodule that runs a program", () => {
    const inner = join(base, "inner");
    mkdirSync(inner);
    writeFileSync(join(inner, "i.txt"), "i\n");
    git(inner, "init", "-q");
    git(inner, "add", ".");
    git(inner, "commit", "-q", "-m", "inner");
    const ws = workspace("nested");
    git(join(ws, "lib"), "-c", "protocol.file.allow=always", "submodule", "add", "-q", inner, "inner");
    git(join(ws, "lib", "inner"), "config", "core.fsmonitor", "touch PWNED");
    for (const r of judge(ws, "git status")) expect(r.action, r.why).not.toBe("allow");
  });
});
