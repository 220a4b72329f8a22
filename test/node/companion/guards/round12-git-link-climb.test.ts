// Never (red team, round 12): git opens the repository a `.git` file names (`gitdir: sshlink/../.git`) and
// a `.git/commondir` as the kernel resolves them, so `link/..` leads to the link's parent — a dotfiles
// repository in the home directory — where the judge read the path lexically (the project's own). Its
// files were printed (`git show HEAD:notes.md`) and its core.fsmonitor ran on `git status`. A `.git`
// directory's commondir naming another repository is never the project's own either.

import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt12-gitclimb-")));
const home = join(base, "home");
mkdirSync(join(home, ".ssh"), { recursive: true });
writeFileSync(join(home, "notes.md"), "HOME-PRIVATE-NOTES\n");
git(home, "init", "-q");
git(home, "add", "notes.md");
git(home, "commit", "-q", "-m", "dotfiles");
afterAll(() => rmSync(base, { recursive: true, force: true }));

function judge(ws: string, command: string) {
  const disk = diskCheck({ env: { HOME: home } });
  return [CAUTIOUS, BALANCED].map((p) =>
    judgeOnDisk(p, { tool: "bash", input: { command }, cwd: ws, home }, { disk }),
  );
}

describe("a repository named through `link/..`", () => {
  it("a .git file `gitdir: sshlink/../.git` is the home repository, to git and to the judge", () => {
    const ws = join(base, "proj1");
    mkdirSync(ws, { recursive: true });
    symlinkSync(join(home, ".ssh"), join(ws, "sshlink"));
    writeFileSync(join(ws, ".git"), "gitdir: sshlink/../.git\n");
    expect(execFileSync("git", ["show", "HEAD:notes.md"], { cwd: ws, encoding: "utf8" })).toContain(
      "HOME-PRIVATE",
    );
    for (const command of ["git show HEAD:notes.md", "git log -p", "git status"])
      for (const r of judge(ws, command)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
  });

  it("a .git directory whose commondir names another repository is not the project's", () => {
    const ws = join(base, "proj2");
    mkdirSync(join(ws, ".git"), { recursive: true });
    cpSync(join(home, ".git", "HEAD"), join(ws, ".git", "HEAD"));
    mkdirSync(join(ws, ".git", "objects"), { recursive: true });
    mkdirSync(join(ws, ".git", "refs"), { recursive: true });
    writeFileSync(join(ws, ".git", "commondir"), `${join(home, ".git")}\n`);
    expect(execFileSync("git", ["show", "HEAD:notes.md"], { cwd: ws, encoding: "utf8" })).toContain(
      "HOME-PRIVATE",
    );
    for (const command of ["git show HEAD:notes.md", "git log -p"])
      for (const r of judge(ws, command)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
  });
});
