// Never (red team, round 13): a workspace with no `.git` of its own inside a repository whose top is above
// it — a dotfiles repository with its work tree at $HOME, a monorepo — took that repository for its own,
// so `git log -p`, `git show`, `git diff`, `git grep` and `git blame` printed files outside the workspace
// ($HOME/notes/private.txt, the monorepo's other packages), allowed unless their names were secrets. Every
// path git may print must lie in the workspace's part of the tree; pathspecs inside it keep it allowed.
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt13-above-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Writes files (making their directories) under `root`. */
function files(root: string, texts: Record<string, string>): void {
  for (const [path, text] of Object.entries(texts)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

// A dotfiles repository at $HOME, the project a plain directory in it: a note committed, then changed in the
// work tree, and another staged.
const home = join(base, "home");
const dotWs = join(home, "proj");
files(home, {
  "notes/private.txt": "PRIVATE_NOTE\n",
  "proj/a.txt": "hello\n",
  "proj/src/b.ts": "export {};\n",
});
git(home, "init", "-q");
git(home, "add", ".");
git(home, "commit", "-q", "-m", "dotfiles");
const noteBlob = git(home, "rev-parse", "HEAD:notes/private.txt");
appendFileSync(join(home, "notes", "private.txt"), "CHANGED_NOTE\n");
files(home, { "notes/todo.txt": "STAGED_NOTE\n" });
git(home, "add", "notes/todo.txt");

// A monorepo, the project one package: only the project's own files changed and staged.
const mono = join(base, "mono");
const monoWs = join(mono, "packages", "app");
files(mono, { "packages/billing/rates.ts": "BILLING_RATE\n", "packages/app/a.txt": "hello\n" });
git(mono, "init", "-q");
git(mono, "add", ".");
git(mono, "commit", "-q", "-m", "mono");
appendFileSync(join(monoWs, "a.txt"), "more\n");
files(monoWs, { "b.txt": "new\n" });
git(monoWs, "add", "b.txt");

function judge(ws: string, command: string) {
  const disk = diskCheck({ env: { HOME: home } });
  return [CAUTIOUS, BALANCED].map((p) =>
    judgeOnDisk(p, { tool: "bash", input: { command }, cwd: ws, home }, { disk }),
  );
}
const run = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });

describe("a dotfiles repository whose work tree is $HOME", () => {
  it("real git prints the home's files from the project below it", () => {
    expect(run(dotWs, "log", "-p")).toContain("PRIVATE_NOTE");
    expect(run(dotWs, "diff")).toContain("CHANGED_NOTE");
    expect(run(dotWs, "diff", "--cached")).toContain("STAGED_NOTE");
    expect(run(dotWs, "show", noteBlob)).toContain("PRIVATE_NOTE");
    expect(run(dotWs, "blame", "../notes/private.txt")).toContain("PRIVATE_NOTE");
    expect(run(dotWs, "log", "-p", "--", ".")).not.toContain("PRIVATE_NOTE");
    expect(run(dotWs, "diff", "--", ".")).not.toContain("CHANGED_NOTE");
  });

  it("never allows what may print a file outside the project", () => {
    for (const command of [
      "git log -p",
      "git log -p --all",
      "git show",
      "git show HEAD",
      "git diff",
      "git diff --cached",
      "git diff HEAD",
      "git log -p -- ../notes",
      "git grep PRIVATE HEAD -- ../notes",
      "git blame ../notes/private.txt",
      `git show ${noteBlob}`,
      `git show ${noteBlob} -- .`,
      `git cat-file -p ${noteBlob}`,
      `git show ${git(home, "rev-parse", "HEAD")}`,
      "git show HEAD:notes/private.txt",
      "git show HEAD:proj/a.txt HEAD",
      "git show :/dotfiles",
    ])
      for (const r of judge(dotWs, command)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
  });

  it("names the path and the top", () => {
    const [r] = judge(dotWs, "git log -p");
    expect(r?.why).toContain("`notes/private.txt`, outside the workspace");
    expect(r?.why).toContain(home);
  });

  it("still allows what stays in the project: status, messages, pathspecs inside, its own files", () => {
    for (const command of [
      "git status",
      "git log --oneline",
      "git log -p -- .",
      "git diff -- .",
      "git diff --cached -- .",
      "git show HEAD -- .",
      "git grep hello",
      "git grep hello -- .",
      "git blame a.txt",
      "git show HEAD:proj/a.txt",
      "git show HEAD:./a.txt",
      `git show ${git(home, "rev-parse", "HEAD")} -- .`,
    ])
      for (const r of judge(dotWs, command)) expect(r.action, `${command}\n${r.why}`).toBe("allow");
  });
});

describe("a package of a monorepo", () => {
  it("real git prints the other packages from the project", () => {
    expect(run(monoWs, "log", "-p")).toContain("BILLING_RATE");
    expect(run(monoWs, "show", "HEAD")).toContain("BILLING_RATE");
  });

  it("never allows what may print another package", () => {
    for (const command of ["git log -p", "git show HEAD", "git grep BILLING HEAD -- ../billing"])
      for (const r of judge(monoWs, command)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
  });

  it("allows diffs of the project's own changes and pathspecs inside it", () => {
    for (const command of [
      "git diff",
      "git diff --cached",
      "git log -p -- .",
      "git status",
      "git grep hello",
    ])
      for (const r of judge(monoWs, command)) expect(r.action, `${command}\n${r.why}`).toBe("allow");
  });
});
