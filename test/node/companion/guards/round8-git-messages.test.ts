// Never (red team, round 8): an allow for a git read that prints a credential from a commit or tag
// message, an author or committer line, or a reflog message. The content check scanned blobs only, so
// `git log -1`, `git show v1 -s`, `git log -g --oneline` printed a GitHub token kept in history. Each
// attack is proven in a real throwaway repository (git prints the token) and judged with the disk as the
// companion judges it; what prints no message (`git log --format=%h`) and clean repositories stay allowed.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { factLine } from "../../../../src/policy/call-facts.ts";
import { judgeCall } from "../../../../src/policy/judge-call.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { firstCommitRepo, NO_CONFIG_ENV, plainGit, readOnlyPolicy } from "./disk-fixture.ts";

const policy = readOnlyPolicy();
const balanced = BALANCED;
const disk = diskCheck({ env: {} });
// Built at run time so no token shape sits in this file.
const TOKEN = `ghp_${"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"}`;
let base: string;
const repos: Record<string, string> = {};

const git = plainGit;
function repo(name: string): string {
  repos[name] = firstCommitRepo(join(base, name));
  return repos[name];
}

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt8g-")));
  // A token in a commit message's body; the reflog forgotten (`reflog expire`), so only the commit holds it.
  const message = repo("message");
  git(message, "commit", "-q", "--allow-empty", "-m", "deploy", "-m", `token ${TOKEN} for CI`);
  git(message, "reflog", "expire", "--expire=now", "--all");
  // A token in an annotated tag's message.
  const tag = repo("tag");
  git(tag, "tag", "-a", "v1", "-m", `release with ${TOKEN}`);
  // A token as the author's name.
  const author = repo("author");
  writeFileSync(join(author, "README.md"), "# r\nby a token\n");
  execFileSync("git", ["-c", `user.name=${TOKEN}`, "-c", "user.email=a@b", "commit", "-qam", "x"], {
    cwd: author,
  });
  git(author, "reflog", "expire", "--expire=now", "--all");
  // A reflog message as `git pull https://user:TOKEN@host/r` writes it; every commit message clean.
  const reflog = repo("reflog");
  git(reflog, "update-ref", "-m", `pull https://user:${TOKEN}@github.com/a/b: Fast-forward`, "HEAD", "HEAD");
  // A password (no token shape) in a pulled URL, in a branch's reflog.
  const password = repo("password");
  git(
    password,
    "update-ref",
    "-m",
    "fetch https://me:hunter2@example.com/r.git: storing head",
    "refs/heads/x",
    "HEAD",
  );
  // A stash whose message holds a token (its commit and logs/refs/stash).
  const stash = repo("stash");
  writeFileSync(join(stash, "README.md"), "# changed\n");
  git(stash, "stash", "push", "-q", "-m", `wip ${TOKEN}`);
  // A .mailmap that maps an author to a token.
  const mailmap = repo("mailmap");
  writeFileSync(join(mailmap, ".mailmap"), `${TOKEN} <a@b>\n`);
  // Clean: tags, branches, a stash, a remote without user-info.
  const clean = repo("clean");
  git(clean, "tag", "-a", "v1", "-m", "release one");
  git(clean, "branch", "feature");
  writeFileSync(join(clean, "README.md"), "# changed\n");
  git(clean, "stash", "push", "-q", "-m", "wip");
  git(clean, "remote", "add", "origin", "https://github.com/a/b.git");
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function bash(name: string, command: string, p = policy) {
  const cwd = repos[name] as string;
  const j = judgeCall(
    p,
    { tool: "bash", input: { command }, cwd, home: join(base, "home") },
    { hasUI: true },
    disk,
  );
  return { action: j.record.action, why: j.facts.map(factLine).join("\n") };
}

/** What git itself prints for the command in that repository (the proof that it is dangerous). */
function prints(name: string, command: string): string {
  const argv = command
    .split(" ")
    .slice(1)
    .map((w) => w.replace(/'/g, ""));
  return execFileSync("git", ["--no-pager", ...argv], {
    cwd: repos[name] as string,
    encoding: "utf8",
    env: NO_CONFIG_ENV,
  });
}

describe("git prints a credential from a message: asks", () => {
  it.each([
    ["message", "git log -1"],
    ["message", "git log"],
    ["message", "git log --format=%B"],
    ["message", "git show -s"],
    ["message", "git cat-file -p HEAD"],
    ["message", "git for-each-ref --format='%(contents)'"],
    ["message", "git rev-list --format=%b HEAD"],
    ["message", "git branch -v --format='%(body)'"],
    ["tag", "git show v1 -s"],
    ["tag", "git show --format=%h v1"],
    ["tag", "git tag -n"],
    ["tag", "git for-each-ref --format='%(contents)' refs/tags"],
    ["tag", "git cat-file -p v1"],
    ["author", "git log -1"],
    ["author", "git shortlog -s HEAD"],
    ["author", "git blame README.md"],
    ["author", "git log --format=%an"],
    ["reflog", "git reflog"],
    ["reflog", "git log -g --oneline"],
    ["reflog", "git log -g"],
    ["password", "git reflog show x"],
    ["stash", "git stash list"],
    ["stash", "git log --all --oneline"],
    ["mailmap", "git log -1"],
    ["mailmap", "git shortlog HEAD"],
  ])("%s: %s", (name, command) => {
    expect(prints(name, command), "git prints the credential").toMatch(
      /ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789|hunter2/,
    );
    const r = bash(name, command);
    expect(r.action, r.why).toBe("ask");
    expect(r.why).toMatch(/credential/);
    expect(bash(name, command, balanced).action).not.toBe("allow");
  });

  it.each([
    ["message", "git log --grep=ghp_A --format=%h"],
    ["message", "git rev-parse :/ghp_A"],
    ["author", "git log --author=ghp_A --format=%h"],
  ])("%s: %s searches the messages (an oracle): asks", (name, command) => {
    expect(bash(name, command).action).toBe("ask");
  });
});

describe("what prints no message, and clean repositories, stay allowed", () => {
  it.each([
    ["message", "git log --format=%h"],
    ["message", "git log --format='%H %ad %d'"],
    ["message", "git rev-list HEAD"],
    ["message", "git for-each-ref"],
    ["message", "git log -g --oneline"],
    ["tag", "git tag"],
    ["tag", "git log -1"],
    ["tag", "git for-each-ref --format='%(refname:short) %(objectname)'"],
    ["reflog", "git log -1"],
    ["reflog", "git log --oneline"],
    ["reflog", "git log -g --format=%h"],
    ["stash", "git stash show"],
  ])("%s: %s", (name, command) => {
    const r = bash(name, command);
    expect(r.action, r.why).toBe("allow");
  });

  it.each([
    "git log -1",
    "git log -g --oneline",
    "git reflog",
    "git stash list",
    "git show -s",
    "git show v1 -s",
    "git shortlog -s",
    "git for-each-ref --format='%(contents)'",
    "git branch -v",
    "git tag -n",
    "git blame README.md",
    "git cat-file -p HEAD",
    "git config --get remote.origin.url",
    "git remote -v",
  ])("clean: %s", (command) => {
    const r = bash("clean", command);
    expect(r.action, r.why).toBe("allow");
    expect(bash("clean", command, balanced).action).toBe("allow");
  });
});

describe("the kept answer follows the database", () => {
  it("a fetch that moves a remote-tracking ref to a commit holding a token: git log origin/main asks", () => {
    const dir = repo("fetch");
    git(dir, "update-ref", "refs/remotes/origin/main", "HEAD");
    expect(bash("fetch", "git log -1 origin/main").action).toBe("allow");
    // What a small fetch does: loose objects, then the ref renamed into refs/remotes/origin (no pack,
    // no change to refs/remotes itself or to logs/HEAD).
    const id = git(dir, "commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", `upstream ${TOKEN}`);
    git(dir, "update-ref", "refs/remotes/origin/main", id);
    expect(prints("fetch", "git log -1 origin/main")).toContain(TOKEN);
    const r = bash("fetch", "git log -1 origin/main");
    expect(r.action, r.why).toBe("ask");
  });
});

describe("git log -N and git show with no revision: the first N commits of HEAD's walk alone", () => {
  it("a token in an older commit: git log -1 and git show -s run, git log -2 and git show HEAD~1 ask", () => {
    const dir = repo("older");
    git(dir, "commit", "-q", "--allow-empty", "-m", `old ${TOKEN}`);
    git(dir, "commit", "-q", "--allow-empty", "-m", "new");
    git(dir, "reflog", "expire", "--expire=now", "--all");
    expect(prints("older", "git log -1")).not.toContain(TOKEN);
    for (const command of ["git log -1", "git show -s", "git log --oneline -1"])
      expect(bash("older", command).action, command).toBe("allow");
    expect(prints("older", "git log -2")).toContain(TOKEN);
    for (const command of ["git log -2", "git log", "git show -s HEAD~1", "git log -1 HEAD~1"])
      expect(bash("older", command).action, command).toBe("ask");
  });

  it("git whatchanged -1 prints the first commit with a change, not HEAD: it reads every commit", () => {
    const dir = repo("whatchanged");
    writeFileSync(join(dir, "a.txt"), "a\n");
    git(dir, "add", "a.txt");
    git(dir, "commit", "-qm", `add ${TOKEN}`);
    git(dir, "commit", "-q", "--allow-empty", "-m", "empty head");
    git(dir, "reflog", "expire", "--expire=now", "--all");
    expect(prints("whatchanged", "git whatchanged -1")).toContain(TOKEN);
    expect(bash("whatchanged", "git log -1").action).toBe("allow");
    const r = bash("whatchanged", "git whatchanged -1");
    expect(r.action, r.why).toBe("ask");
  });

  it("a replace ref shows another commit in place of HEAD: git log -1 asks", () => {
    const dir = repo("replaced");
    const id = git(dir, "commit-tree", "HEAD^{tree}", "-m", `replacement ${TOKEN}`);
    git(dir, "replace", git(dir, "rev-parse", "HEAD"), id);
    expect(prints("replaced", "git log -1")).toContain(TOKEN);
    const r = bash("replaced", "git log -1");
    expect(r.action, r.why).toBe("ask");
  });
});

describe("git config --get of a URL key: judged by the URL on disk", () => {
  it("asks when the remote URL holds a credential, allows when clean; the whole configuration stays a secret", () => {
    const dir = repo("url");
    git(dir, "remote", "add", "origin", `https://u:${TOKEN}@github.com/a/b.git`);
    git(dir, "remote", "add", "up", "https://github.com/a/b.git");
    for (const command of [
      "git config --get remote.origin.url",
      "git config remote.origin.url",
      "git config --get-all REMOTE.origin.URL",
    ]) {
      const r = bash("url", command, balanced);
      expect(r.action, command).toBe("ask");
      expect(r.why).toMatch(/holds a credential/);
    }
    // Another remote's key prints its own clean URL only (overask12: judged by the named key's values).
    for (const command of ["git config remote.up.url", "git config --get-all REMOTE.up.URL"]) {
      expect(prints("url", command), command).not.toContain(TOKEN);
      expect(bash("url", command, balanced).action, command).toBe("allow");
    }
    expect(bash("clean", "git config --get remote.origin.url", balanced).action).toBe("allow");
    expect(bash("clean", "git config --get-regexp remote", balanced).action).toBe("deny");
    expect(bash("clean", "git config -f .git/config --get remote.origin.url", balanced).action).toBe("deny");
  });
});

describe("property: a printer of messages is allowed iff no message holds a token", () => {
  const shapes = fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9]{36}$/).map((s) => `ghp_${s}`),
    fc.stringMatching(/^[A-Z0-9]{16}$/).map((s) => `AKIA${s}`),
    fc.stringMatching(/^[0-9A-Za-z_-]{20}$/).map((s) => `glpat-${s}`),
    fc.stringMatching(/^[0-9A-Za-z]{24}$/).map((s) => `sk_live_${s}`),
  );
  // Lower case, spaces and punctuation: no credential shape can form by chance.
  const words = fc.stringMatching(/^[a-z .,:()]{0,40}$/);
  it("git log -1 asks iff the message holds a token; git log -g --oneline iff its subject does", () => {
    let n = 0;
    fc.assert(
      fc.property(
        words,
        words,
        fc.option(shapes, { nil: undefined }),
        fc.boolean(),
        (subject, body, token, inSubject) => {
          const dir = join(base, `prop${n++}`);
          mkdirSync(dir);
          git(dir, "init", "-q", ".");
          const s = `m ${subject}${token !== undefined && inSubject ? ` ${token} ` : ""}`;
          const b = `b ${body}${token !== undefined && !inSubject ? ` ${token} ` : ""}`;
          git(dir, "commit", "-q", "--allow-empty", "-m", s, "-m", b);
          repos[dir] = dir;
          expect(bash(dir, "git log -1").action).toBe(token === undefined ? "allow" : "ask");
          expect(bash(dir, "git log -g --oneline").action).toBe(
            token !== undefined && inSubject ? "ask" : "allow",
          );
          expect(bash(dir, "git log --format=%h").action).toBe("allow");
        },
      ),
      { numRuns: 25 },
    );
  });
});
