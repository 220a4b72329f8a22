// Never (red team, round 10, class B): an allow for a read that prints a credential git keeps in its own
// files. `git reflog` asked for a reflog holding `pull https://user:PASS@host` while `cat .git/logs/HEAD`
// was allowed; `git remote get-url NAME` read no legacy `.git/remotes`/`.git/branches` file; `git config
// --get branch.main.remote` was judged by the key's name while git takes a URL there. Each attack is
// proven in a real throwaway repository (the file or git prints the password) and judged with the disk
// as the companion judges it; clean repositories stay allowed.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { factLine } from "../../../../src/policy/call-facts.ts";
import { judgeCall } from "../../../../src/policy/judge-call.ts";
import { isGitMetadataPath, PrivateKeyScan } from "../../../../src/policy/secret-families.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { firstCommitRepo, NO_CONFIG_ENV, plainGit, readOnlyPolicy } from "./disk-fixture.ts";

const policy = readOnlyPolicy();
const balanced = BALANCED;
const disk = diskCheck({ env: {} });
const PASS = "Sup3rS3cretPass";
let base: string;
let blob = "";
let readme = "";
const repos: Record<string, string> = {};

const git = plainGit;
function repo(name: string): string {
  repos[name] = firstCommitRepo(join(base, name));
  return repos[name];
}

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt10g-")));
  // The reflog entry `git pull https://deploy:PASS@host/r` writes.
  const reflog = repo("reflog");
  git(
    reflog,
    "update-ref",
    "-m",
    `pull https://deploy:${PASS}@git.example.com/o/r.git: Fast-forward`,
    "HEAD",
    "HEAD",
  );
  // Legacy remote files, which git still reads as remotes.
  const legacy = repo("legacy");
  mkdirSync(join(legacy, ".git", "remotes"));
  mkdirSync(join(legacy, ".git", "branches"), { recursive: true });
  writeFileSync(join(legacy, ".git", "branches", "old"), `https://deploy:${PASS}@git.example.com/o/r.git\n`);
  writeFileSync(
    join(legacy, ".git", "remotes", "up"),
    `URL: https://deploy:${PASS}@git.example.com/o/r.git\n`,
  );
  // A URL where git takes a remote's name.
  const named = repo("named");
  git(named, "config", "branch.main.remote", `https://deploy:${PASS}@git.example.com/o/r.git`);
  git(named, "config", "branch.main.pushRemote", `https://deploy:${PASS}@git.example.com/o/r.git`);
  git(named, "config", "remote.pushDefault", `https://deploy:${PASS}@git.example.com/o/r.git`);
  // A gitignored .env staged by mistake and unstaged: its blob stays, dangling, named by nothing.
  const dangling = repo("dangling");
  writeFileSync(join(dangling, ".gitignore"), ".env\n");
  git(dangling, "add", ".gitignore");
  git(dangling, "commit", "-qm", "ignore");
  writeFileSync(join(dangling, ".env"), `API_KEY=${PASS}\n`);
  git(dangling, "add", "-f", ".env");
  git(dangling, "reset", "-q", ".env");
  blob = git(dangling, "hash-object", ".env");
  readme = git(dangling, "rev-parse", "HEAD:README.md");
  // Clean: a remote without user-info, a reflog of ordinary commands.
  const clean = repo("clean");
  git(clean, "remote", "add", "origin", "https://github.com/a/b.git");
  git(clean, "branch", "feature");
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function judge(name: string, tool: string, input: Record<string, unknown>, p = policy) {
  const cwd = repos[name] as string;
  const j = judgeCall(p, { tool, input, cwd, home: join(base, "home") }, { hasUI: true }, disk);
  return { action: j.record.action, why: j.facts.map(factLine).join("\n") };
}
const bash = (name: string, command: string, p = policy) => judge(name, "bash", { command }, p);

/** What real bash prints for the command in that repository (the proof that it is dangerous). */
function prints(name: string, command: string): string {
  return execFileSync("bash", ["-c", command], {
    cwd: repos[name] as string,
    encoding: "utf8",
    env: NO_CONFIG_ENV,
  });
}

describe("a credential in git's own files, read as a file or printed by git: asks", () => {
  it.each([
    ["reflog", "cat .git/logs/HEAD"],
    ["reflog", "head -c 4000 .git/logs/HEAD"],
    ["reflog", "grep pull .git/logs/HEAD"],
    ["reflog", "tail -n 1 .git/logs/HEAD"],
    ["reflog", "grep -r deploy .git/logs"],
    ["legacy", "cat .git/remotes/up"],
    ["legacy", "cat .git/branches/old"],
    ["legacy", "git remote get-url old"],
    ["legacy", "git remote get-url up"],
    ["named", "git config --get branch.main.remote"],
    ["named", "git config --get branch.main.pushRemote"],
    ["named", "git config --get remote.pushDefault"],
    ["named", "git config branch.main.remote"],
    ["named", "git for-each-ref --format='%(push:remotename)' refs/heads"],
  ])("%s: %s", (name, command) => {
    expect(prints(name, command), "it prints the password").toContain(PASS);
    const r = bash(name, command);
    expect(r.action, r.why).toBe("ask");
    expect(r.why).toMatch(/credential/);
    expect(bash(name, command, balanced).action).not.toBe("allow");
  });

  it("the read tool on a reflog holding a URL with a password asks", () => {
    expect(readFileSync(join(repos.reflog as string, ".git/logs/HEAD"), "utf8")).toContain(PASS);
    for (const p of [policy, balanced]) {
      const r = judge("reflog", "read", { path: ".git/logs/HEAD" }, p);
      expect(r.action, r.why).not.toBe("allow");
    }
  });
});

describe("a raw object id no history names (red team, round 10, class C)", () => {
  it("git show, cat-file -p and diff of a dangling .env blob ask; a named blob and commits run", () => {
    for (const command of [
      `git show ${blob}`,
      `git show ${blob.slice(0, 10)}`,
      `git cat-file -p ${blob}`,
      `git diff ${blob} ${readme}`,
      "git cat-file --batch-all-objects --batch",
      `echo ${blob} | git cat-file --batch`,
      `git cat-file --batch='%(objectname) %(objecttype)' <<< ${blob}`,
    ]) {
      expect(prints("dangling", command), command).toContain(PASS);
      for (const p of [policy, balanced]) {
        const r = bash("dangling", command, p);
        expect(r.action, `${command}: ${r.why}`).not.toBe("allow");
      }
      const why = bash("dangling", command, balanced).why;
      if (!command.includes("--batch")) expect(why).toMatch(/no commit, index entry, reflog or stash names/);
    }
    for (const command of [
      `git show ${readme}`,
      "git show HEAD",
      `git show ${git(repos.dangling as string, "rev-parse", "HEAD")}`,
    ])
      expect(bash("dangling", command, balanced).action, command).toBe("allow");
  });
});

describe("clean repositories stay allowed", () => {
  it.each([
    "cat .git/logs/HEAD",
    "cat .git/HEAD",
    "git config user.name",
    "git config --get remote.origin.url",
    "git for-each-ref --format='%(push:remotename)' refs/heads",
    "git remote get-url origin",
    "git log --oneline",
  ])("clean: %s", (command) => {
    const r = bash("clean", command);
    expect(r.action, r.why).toBe("allow");
    expect(bash("clean", command, balanced).action).toBe("allow");
  });
});

describe("the scan of git's own files", () => {
  it("property: a URL with user-info in a git file is found wherever it sits; the plain scan ignores it", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }).filter((s) => !s.includes("@") && !s.includes("://")),
        fc.string({ maxLength: 200 }).filter((s) => !s.includes("@") && !s.includes("://")),
        fc.constantFrom("https", "http", "ssh", "git+ssh"),
        fc.stringMatching(/^[a-z0-9]{1,12}$/),
        fc.stringMatching(/^[A-Za-z0-9]{1,20}$/),
        (before, after, scheme, user, pass) => {
          const text = `${before} ${scheme}://${user}:${pass}@host/r.git ${after}`;
          expect(new PrivateKeyScan(true).feed(text)).toBe(true);
          expect(new PrivateKeyScan(false).feed(text)).toBe(false);
        },
      ),
    );
  });

  it("git's own files are every .git/ path but the object database", () => {
    for (const p of [".git/logs/HEAD", "a/.git/remotes/x", ".git/FETCH_HEAD", ".git/modules/m/logs/HEAD"])
      expect(isGitMetadataPath(p), p).toBe(true);
    for (const p of [".git/objects/ab/cdef", "src/git/logs", ".github/workflows/ci.yml", "x.git/logs/HEAD"])
      expect(isGitMetadataPath(p), p).toBe(false);
  });
});
