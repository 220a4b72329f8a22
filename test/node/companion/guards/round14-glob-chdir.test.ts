// Red team, round 14 (r14-22, r14-23): a glob as the directory a program changes to. `git -C [v]alidrepo
// status` ran a nested repository's core.fsmonitor with no repository check (the -C word was taken as a
// literal name), `env -C validr* git status` was judged where the shell was, and `tar -C sshc* -cf - .` walked
// the workspace while tar archived ~/.ssh through the link the glob matched. A glob given to git's or env's
// -C is a directory not known before it runs (asks); tar's expands as bash expands it and each match is judged.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { git, gitWorkspace, KEY, starterActions } from "./disk-fixture.ts";

const { base, ws, home } = gitWorkspace(
  "airlock-rt14-chdir-",
  { "README.md": "# app\n", "src/a.txt": "x\n" },
  { ".ssh/id_ed25519": KEY },
);
afterAll(() => rmSync(base, { recursive: true, force: true }));

// A nested repository (a fixture, a vendored checkout) whose configuration runs a program, and a link out.
mkdirSync(join(ws, "validrepo"));
git(join(ws, "validrepo"), "init", "-q");
git(join(ws, "validrepo"), "config", "core.fsmonitor", "echo PWNED-valid >&2; false");
symlinkSync(join(home, ".ssh"), join(ws, "sshcache"));

const actions = (command: string) => starterActions(command, ws, home);

describe("a glob as the directory a program changes to", () => {
  it("real bash expands it: git runs the nested repository's fsmonitor, tar archives the key", () => {
    const status = spawnSync("bash", ["-c", "git -C [v]alidrepo status"], { cwd: ws, encoding: "utf8" });
    expect(status.stderr).toContain("PWNED-valid");
    const key = execFileSync("bash", ["-c", "tar -C sshc* -cf - . | tar -xOf - ./id_ed25519"], {
      cwd: ws,
      encoding: "utf8",
    });
    expect(key).toContain("OPENSSH PRIVATE KEY");
  });

  it.each([
    "git -C [v]alidrepo status",
    "git -C validr* status",
    "git -C valid?epo status",
    "git -C ./validr* log -1",
    'for d in validr*; do git -C "$d" status; done',
    "env -C validr* git status",
    "tar -C [s]shcache -c .",
    "tar -C sshc* -cf - .",
    "tar --directory=sshc* -cf - .",
  ])("asks: %s", (command) => {
    expect(actions(command)).toEqual(["balanced: ask", "autonomous: ask"]);
  });

  it("tar's glob directory is expanded, so a match inside the workspace is judged as the directory itself", () => {
    expect(actions("tar -C s?c -cf - .")).toEqual(actions("tar -C src -cf - ."));
    expect(actions("tar -C s?c -cf - .")).toContain("autonomous: allow");
  });

  it.each(["git -C src status", "git status", "env -C src git status"])(
    "an everyday call stays allowed: %s",
    (command) => {
      expect(actions(command)).toEqual(["balanced: allow", "autonomous: allow"]);
    },
  );
});
