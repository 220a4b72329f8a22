// Never: an allow for a read-only git call whose output the repository's own state widens beyond what the
// text names (red team, round 7). Each attack is set up in a real repository, confirmed with real git
// where it prints or runs something, and judged with the disk: notes printed beside commits, a work tree
// moved outside the project, diff.submodule=diff running git inside a submodule, and a `.git` file
// written to make another directory the repository. The same calls in a plain repository stay allowed.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
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

describe("history a pathspec or a path listing does not show", () => {
  function renamed(name: string): string {
    const ws = join(base, `${name}-origin`);
    mkdirSync(ws, { recursive: true });
    git(ws, "init", "-q", ".");
    const lines = Array.from({ length: 20 }, (_, i) => `setting_${i}=${i}\n`).join("");
    writeFileSync(join(ws, ".env"), `${lines}STRIPE_KEY=FOLLOWSECRET\n`);
    writeFileSync(join(ws, "README.md"), "hi\n");
    git(ws, "add", "-A");
    git(ws, "commit", "-qm", "one");
    mkdirSync(join(ws, "config"));
    git(ws, "mv", ".env", "config/settings.txt");
    writeFileSync(join(ws, "config", "settings.txt"), lines);
    git(ws, "commit", "-qam", "two");
    // A fresh clone: no reflog holds the first name.
    const clone = join(base, name);
    git(base, "clone", "-q", ws, clone);
    return clone;
  }
  it("--follow, --full-diff and -L print what the pathspec does not name", () => {
    const ws = renamed("follow");
    expect(git(ws, "log", "-p", "--follow", "--", "config/settings.txt")).toContain("FOLLOWSECRET");
    for (const c of [
      "git log -p --follow -- config/settings.txt",
      "git log -p --full-diff -- README.md",
      "git log -L1,5:config/settings.txt",
      "git log -p",
    ]) {
      const r = bash(ws, c);
      expect(r.action, c).toBe("ask");
      expect(r.why, c).toMatch(/\.env/);
    }
  });
  it("a blob first reached through a tag or a later name is still found under its secret name", () => {
    const ws = repo("tagged");
    mkdirSync(join(ws, "deploy"));
    writeFileSync(join(ws, "deploy", "prod.env"), "DB_PASSWORD=HISTORYSECRET\n");
    git(ws, "add", "-A");
    git(ws, "commit", "-qm", "add");
    git(ws, "rm", "-q", "deploy/prod.env");
    git(ws, "commit", "-qm", "rm");
    git(ws, "tag", "blobtag", "HEAD~1:deploy/prod.env");
    const clone = join(base, "tagged-clone");
    git(base, "clone", "-q", ws, clone);
    git(clone, "fetch", "-q", "origin", "refs/tags/*:refs/tags/*");
    const r = bash(clone, "git log -p");
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/prod\.env/);
  });
  it("a dropped stash's commit, named by its id, prints the .env it held", () => {
    const ws = repo("dropped");
    writeFileSync(join(ws, ".env"), "API_TOKEN=STASHSECRET\n");
    git(ws, "add", ".env");
    git(ws, "stash", "-q");
    const index = git(ws, "rev-parse", "stash@{0}^2").trim();
    git(ws, "stash", "drop", "-q");
    expect(git(ws, "show", index)).toContain("STASHSECRET");
    const r = bash(ws, `git show ${index}`);
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/\.env/);
    expect(bash(ws, "git status").action).toBe("allow");
  });
  it("git stash list -p prints a stashed .env", () => {
    const ws = repo("stash");
    writeFileSync(join(ws, ".env"), "API_TOKEN=STASHSECRET\n");
    git(ws, "add", ".env");
    git(ws, "stash", "-q");
    expect(git(ws, "stash", "list", "-p")).toContain("STASHSECRET");
    expect(bash(ws, "git stash list -p").action).toBe("ask");
    expect(bash(ws, "git stash list").action).toBe("allow");
  });
});

describe("what git runs or uses on a read-only command", () => {
  it("a post-index-change hook: git status asks", () => {
    const ws = repo("hook");
    const hook = join(ws, ".git", "hooks", "post-index-change");
    writeFileSync(hook, `#!/bin/sh\ntouch "${join(base, "HOOKRAN")}"\n`);
    chmodSync(hook, 0o755);
    for (const c of ["git status", "git diff"]) {
      const r = bash(ws, c);
      expect(r.action, c).toBe("ask");
      expect(r.why, c).toMatch(/post-index-change/);
    }
  });
  it("a .git file naming a repository outside the project: git reads ask; a linked worktree stays allowed", () => {
    const other = repo("private");
    const ws = join(base, "nogit2");
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, ".git"), `gitdir: ${join(other, ".git")}\n`);
    const r = bash(ws, "git log");
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/outside the project/);
    const main = repo("main-repo");
    const linked = join(base, "linked");
    git(main, "worktree", "add", "-q", linked);
    expect(bash(linked, "git log --oneline").action).toBe("allow");
  });
  it("a partial clone: judging never fetches (uploadpack never runs), and a read that may fetch asks", () => {
    const src = repo("pc-src");
    const srv = join(base, "srv.git");
    git(base, "clone", "-q", "--bare", src, srv);
    git(srv, "config", "uploadpack.allowfilter", "true");
    const pc = join(base, "pc");
    git(base, "clone", "-q", "--filter=blob:none", "--no-checkout", `file://${srv}`, pc);
    const marker = join(base, "UPLOADPACK-RAN");
    const up = join(base, "up.sh");
    writeFileSync(up, `#!/bin/sh\ntouch "${marker}"\nexec git-upload-pack "$@"\n`);
    chmodSync(up, 0o755);
    git(pc, "config", "remote.origin.uploadpack", up);
    for (const c of ["git log --stat", "git log -p -1", "git show HEAD"]) {
      const r = bash(pc, c);
      expect(r.action, c).toBe("ask");
    }
    expect(existsSync(marker)).toBe(false);
  });
});

describe("files the repository's configuration names, and repositories built by writes", () => {
  it("blame.ignoreRevsFile outside the project: blame prints its first line; asks", () => {
    const ws = repo("ignorerevs");
    const creds = join(base, "home", ".git-credentials");
    mkdirSync(join(base, "home"), { recursive: true });
    writeFileSync(creds, "https://user:ghp_FAKECREDTOKEN@github.com\n");
    git(ws, "config", "blame.ignoreRevsFile", creds);
    const r = bash(ws, "git blame a.txt");
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/blame\.ignore[Rr]evs[Ff]ile|ignorerevsfile/i);
    git(ws, "config", "blame.ignoreRevsFile", ".git-blame-ignore-revs");
    expect(bash(ws, "git blame a.txt").action).toBe("allow");
  });
  it("gpg.ssh.allowedSignersFile outside the project: ssh-keygen reports its lines; asks (round 12)", () => {
    const ws = repo("allowedsigners");
    const creds = join(base, "home", ".aws-credentials");
    mkdirSync(join(base, "home"), { recursive: true });
    writeFileSync(creds, "[default]\naws_access_key_id = AKIAFAKE\n");
    git(ws, "config", "gpg.ssh.allowedSignersFile", creds);
    const r = bash(ws, "git log --show-signature -1");
    expect(r.action).not.toBe("allow");
    expect(bash(ws, "git status").action).not.toBe("allow");
    git(ws, "config", "gpg.ssh.allowedSignersFile", ".allowed_signers");
    expect(bash(ws, "git status").action).toBe("allow");
  });
  it("a write inside a git directory in the workspace, and the files that make one, ask", () => {
    const ws = repo("builds");
    git(ws, "init", "-q", "--bare", "fixtures/repo");
    for (const [tool, input] of [
      ["write", { path: join(ws, "fixtures", "repo", "config"), content: "[core]\n\tfsmonitor = x\n" }],
      ["write", { path: join(ws, "fixtures", "HEAD"), content: "ref: refs/heads/master\n" }],
      ["write", { path: join(ws, "fixtures", "commondir"), content: "..\n" }],
      ["bash", { command: "echo '[core]' > fixtures/repo/config" }],
    ] as const) {
      const r = judge(ws, tool, input);
      expect(r.action, JSON.stringify(input)).not.toBe("allow");
    }
    expect(judge(ws, "write", { path: join(ws, "fixtures", "notes.md"), content: "x" }).action).toBe("allow");
  });
});
