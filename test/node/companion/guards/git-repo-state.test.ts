// Never: an allow for a read-only git call whose output the repository's own state widens beyond what the
// text names (red team, round 7). Each attack is set up in a real repository, confirmed with real git
// where it prints or runs something, and judged with the disk: notes printed beside commits, a work tree
// moved outside the project, diff.submodule=diff running git inside a submodule, and a `.git` file
// written to make another directory the repository. The same calls in a plain repository stay allowed.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { factLine } from "../../../../src/policy/call-facts.ts";
import { judgeCall } from "../../../../src/policy/judge-call.ts";
import { KEY, readOnlyPolicy } from "./disk-fixture.ts";

const policy = readOnlyPolicy();
const disk = diskCheck({ env: {} });
let base: string;

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@e", ...args], { cwd, encoding: "utf8" });

function repo(name: string): string {
  const ws = join(base, name);
  mkdirSync(ws, { recursive: true });
  git(ws, "init", "-q", ".");
  writeFileSync(join(ws, "a.txt"), "one\n");
  git(ws, "add", "a.txt");
  git(ws, "commit", "-qm", "one");
  writeFileSync(join(ws, "a.txt"), "two\n");
  git(ws, "commit", "-qam", "two");
  return ws;
}

function judge(ws: string, tool: string, input: Record<string, unknown>) {
  const j = judgeCall(policy, { tool, input, cwd: ws, home: join(base, "home") }, { hasUI: true }, disk);
  return { action: j.record.action, why: j.facts.map(factLine).join("\n") };
}
const bash = (ws: string, command: string) => judge(ws, "bash", { command });

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt7-")));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("git notes", () => {
  it("git log prints a note holding a private key: asks, naming the notes", () => {
    const ws = repo("notes");
    writeFileSync(join(base, "key"), KEY);
    git(ws, "notes", "add", "-F", join(base, "key"), "HEAD~1");
    expect(git(ws, "log")).toContain("PRIVATE KEY");
    for (const c of ["git log", "git show -s HEAD~1", "git log --oneline", "git whatchanged"]) {
      const r = bash(ws, c);
      expect(r.action, c).toBe("ask");
      expect(r.why, c).toMatch(/notes/);
    }
  });
  it("packed notes refs count too", () => {
    const ws = repo("notes-packed");
    git(ws, "notes", "add", "-m", "DB_PASSWORD=NOTESECRET", "HEAD");
    git(ws, "pack-refs", "--all");
    expect(bash(ws, "git log").action).toBe("ask");
  });
  it("a repository without notes keeps git log allowed", () => {
    const ws = repo("plain");
    expect(bash(ws, "git log").action).toBe("allow");
    expect(bash(ws, "git show -s HEAD").action).toBe("allow");
  });
});

describe("the repository's configuration moves what git reads or runs", () => {
  it("core.worktree outside the project: git grep prints the outside file", () => {
    const ws = repo("worktree");
    const outside = join(base, "home");
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "a.txt"), "aws_secret_access_key = OUTSIDE\n");
    git(ws, "config", "core.worktree", outside);
    expect(git(ws, "grep", "-e", ".")).toContain("OUTSIDE");
    for (const c of ["git grep -e .", "git diff", "git status"]) {
      const r = bash(ws, c);
      expect(r.action, c).toBe("ask");
      expect(r.why, c).toMatch(/core\.worktree/);
    }
  });
  it("diff.submodule=diff: git log -p and git show may run git inside a submodule", () => {
    const ws = repo("diffsub");
    git(ws, "config", "diff.submodule", "diff");
    for (const c of ["git log -p", "git show", "git log"]) {
      const r = bash(ws, c);
      expect(r.action, c).toBe("ask");
      expect(r.why, c).toMatch(/diff\.submodule/);
    }
  });
  it("with submodules, git log -p and git show enter them (a user's own diff.submodule=diff)", () => {
    const ws = repo("withsub");
    writeFileSync(join(ws, ".gitmodules"), '[submodule "sub"]\n\tpath = sub\n\turl = ./sub\n');
    expect(bash(ws, "git log -p").action).toBe("ask");
    expect(bash(ws, "git show HEAD").action).toBe("ask");
    expect(bash(ws, "git log --oneline").action).toBe("allow");
  });
  it("diff.submodule=short (git's default) changes nothing", () => {
    const ws = repo("short");
    git(ws, "config", "diff.submodule", "short");
    expect(bash(ws, "git log -p").action).toBe("allow");
  });
});

describe("a `.git` file written into the workspace", () => {
  it("is a protected write, by the file tool and by the shell, where workspace writes are allowed", () => {
    const ws = join(base, "nogit");
    mkdirSync(ws, { recursive: true });
    for (const [tool, input] of [
      ["write", { path: join(ws, ".git"), content: "gitdir: gd\n" }],
      ["bash", { command: "echo 'gitdir: gd' > .git" }],
      ["bash", { command: "echo 'gitdir: gd' > sub/.git" }],
    ] as const) {
      const j = judgeCall(policy, { tool, input, cwd: ws, home: join(base, "home") }, { hasUI: true });
      expect(j.record.action, JSON.stringify(input)).not.toBe("allow");
    }
  });
});
