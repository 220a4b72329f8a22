// Never: an allow for a git command that prints a secret without naming it — `git log -p`, `git show
// <rev>`, `git show <blob id>` over a history that once held a dotenv file, `git diff` of a tracked
// secret-family file, `git remote -v` with a token in a remote URL (red team, round 3). Each attack is
// judged text-only (the bypass is real: the edge's view allows it) and with the disk (asks, names the
// path). The same commands in a repository without secrets stay allowed.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../../../src/companion/guards/git-contents.ts";
import { DISK, git, judgeOnDisk, readOnlyPolicy, write } from "./disk-fixture.ts";

const policy = readOnlyPolicy();
let base: string;
let dirty: string;
let clean: string;
let blob: string;

function repo(dir: string): void {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", ".");
  write(join(dir, "src", "a.ts"), "export const a = 1;\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "a");
}

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-gitc-")));
  dirty = join(base, "dirty");
  clean = join(base, "clean");
  repo(dirty);
  repo(clean);
  // A dotenv committed once and deleted since; a tracked secret-family file changed in the work tree.
  write(join(dirty, "cfg", ".env.production"), "PROD_DB_PASSWORD=old\n");
  git(dirty, "add", "-A");
  git(dirty, "commit", "-qm", "env");
  git(dirty, "rm", "-q", "cfg/.env.production");
  git(dirty, "commit", "-qm", "rm env");
  write(join(dirty, "tracked.env"), "FAKE_TOKEN=1\n");
  git(dirty, "add", "tracked.env");
  git(dirty, "commit", "-qm", "tracked");
  write(join(dirty, "tracked.env"), "FAKE_TOKEN=2\n");
  blob = git(dirty, "rev-parse", "--short", "HEAD:tracked.env");
  git(dirty, "remote", "add", "origin", "https://x:ghp_FAKE@github.com/a/b");
  // Tags that name the secret's blob: `git show TAG` prints the blob whatever the diff options.
  git(dirty, "tag", "vblob", blob);
  git(dirty, "tag", "-a", "-m", "t", "tblob", blob);
  git(clean, "remote", "add", "origin", "https://github.com/a/b");
  write(join(clean, "src", "a.ts"), "export const a = 2;\n");
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function bash(cwd: string, command: string, withDisk = true) {
  return judgeOnDisk(
    policy,
    { tool: "bash", input: { command }, cwd, home: join(base, "home") },
    { disk: withDisk && DISK },
  );
}

describe("git commands that print what a secret-family path held", () => {
  it.each([
    ["git log -p", /cfg\/\.env\.production|tracked\.env/],
    ["git log --all -p", /cfg\/\.env\.production|tracked\.env/],
    ["git show HEAD~2", /cfg\/\.env\.production|tracked\.env/],
    ["git log -p -- cfg", /cfg\/\.env\.production/],
    ["git diff", /tracked\.env.*index/],
    ["git diff HEAD~3 HEAD", /\.env/],
    ["git show HEAD~2 -- .", /\.env/],
    ["git grep PROD HEAD~2", /\.env/],
    ["git diff main", /\.env/],
    // A pickaxe lists a commit iff its diff matches: an oracle over every blob, a secret's included, one
    // character at a time (red team, round 5); --check prints the lines it finds.
    ["git log --all -G'PROD_DB_PASSWORD=o' --oneline", /\.env/],
    ["git log -SPROD_DB --oneline", /\.env/],
    ["git log --pickaxe-regex -S 'PASS.*=o'", /\.env/],
    ["git whatchanged -G PROD", /\.env/],
    ["git rev-list --all -G PROD", /\.env/],
    ["git rev-list --all -S PROD", /\.env/],
    ["git log --check", /\.env/],
    ["git log --all --check --format=%h", /\.env/],
    // Formats that imply a patch (red team, round 5: --remerge-diff).
    ["git log --remerge-diff", /\.env/],
    ["git log --diff-merges=remerge", /\.env/],
    ["git log -W", /\.env/],
    ["git log --function-context", /\.env/],
  ])("%s asks, naming the path", (command, path) => {
    expect(bash(dirty, command, false).action).toBe("allow");
    const r = bash(dirty, command);
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(path);
  });
  it("git show of a blob id asks: the id names no path, the history holds a secret", () => {
    expect(bash(dirty, `git show ${blob}`, false).action).toBe("allow");
    expect(bash(dirty, `git show ${blob}`).why).toMatch(/history/);
  });
  it("a pathspec that cannot reach a secret stays allowed", () => {
    expect(bash(dirty, "git log -p -- src").action).toBe("allow");
    expect(bash(dirty, "git log -G PROD --oneline -- src").action).toBe("allow");
    expect(bash(dirty, "git diff -- src/a.ts").action).toBe("allow");
  });
  it("names-only forms stay allowed", () => {
    expect(bash(dirty, "git log --oneline").action).toBe("allow");
    expect(bash(dirty, "git status").action).toBe("allow");
  });
  it("headless, the same call is denied", () => {
    const j = judgeOnDisk(
      policy,
      { tool: "bash", input: { command: "git log -p" }, cwd: dirty, home: base },
      { hasUI: false },
    );
    expect(j.action).toBe("deny");
  });
});

describe("property: a pickaxe over a history that holds a secret never runs unasked", () => {
  it("any commit walk, pickaxe spelling, pattern and names-only options", () => {
    const walk = fc.constantFrom("log", "whatchanged", "rev-list", "log --all", "rev-list --all");
    const pickaxe = fc.constantFrom("-S", "-G", "--pickaxe-regex -S", "--pickaxe-all -G", "-S", "--check");
    const extra = fc.subarray(["--oneline", "--stat", "-n 3", "--name-only", "--format=%h"]);
    fc.assert(
      fc.property(walk, pickaxe, fc.stringMatching(/^[A-Za-z0-9_=]{1,12}$/), extra, (w, p, v, more) => {
        const value = p === "--check" ? "" : p.startsWith("-S") || p.endsWith("-S") ? ` ${v}` : `${v}`;
        const command = `git ${w} ${more.join(" ")} ${p}${value}`;
        expect(bash(dirty, command).action, command).not.toBe("allow");
      }),
      { numRuns: 40 },
    );
  });
});

describe("git show with a names-only format prints no file's contents", () => {
  // Over a history that holds a secret, a commit's stat, names or message print no content: the call
  // runs (the over-ask: every `git show HEAD --stat` asked in a repository with a key in a test fixture).
  it.each(["git show HEAD~2 --stat", "git show --stat", "git show -s HEAD~1", "git show --name-only HEAD~2"])(
    "%s is allowed",
    (c) => {
      const r = bash(dirty, c);
      expect(r.action, r.why).toBe("allow");
    },
  );
  it.each([
    "git show --stat HEAD~2 --oneline --format=%h",
    "git show --name-status --abbrev-commit HEAD~1 HEAD~2",
  ])("%s (presentation options) is allowed", (c) => {
    expect(bash(dirty, c).action).toBe("allow");
  });
  // Near neighbours that print a blob or a patch: they still ask.
  it.each([
    "git show HEAD~2:cfg/.env.production --stat",
    "git show --stat vblob",
    "git show --stat tblob",
    "git show --stat -p HEAD~2",
    "git show --stat --patch-with-stat HEAD~2",
    "git show --stat --check HEAD~2",
    "git show --stat -U1 HEAD~2",
    "git show --stat -W HEAD~2",
    "git show --stat --cc HEAD~2",
    "git show --stat --word-diff HEAD~2",
    "git show --stat --binary HEAD~2",
    "git show --stat HEAD~2 HEAD~3:cfg/.env.production",
    "git show HEAD~2",
  ])("%s asks", (c) => {
    expect(bash(dirty, c).action).toBe("ask");
  });
  it.each([
    "git diff --stat",
    "git diff --name-only HEAD~3 HEAD",
    "git diff --cached --stat",
    "git diff --name-status HEAD~3",
  ])("%s (a diff's names and counts) is allowed", (c) => {
    const r = bash(dirty, c);
    expect(r.action, r.why).toBe("allow");
  });
  it.each([
    "git diff --stat -p",
    "git diff --stat --check",
    "git diff --stat -U0",
    "git diff --stat --word-diff",
    "git diff --numstat --binary",
    "git diff --stat --patch-with-stat HEAD~3",
    "git diff --stat --color-words",
  ])("%s (a diff that prints lines) asks", (c) => {
    expect(bash(dirty, c).action).toBe("ask");
  });
  it("git show of the blob id with a names-only format asks", () => {
    expect(bash(dirty, `git show --stat ${blob}`).action).toBe("ask");
  });
  it("a repository with replace refs is not trusted to show commits", () => {
    const dir = join(base, "replaced");
    repo(dir);
    write(join(dir, ".env"), "SECRET=1\n");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "env");
    git(dir, "replace", "-f", git(dir, "rev-parse", "HEAD~1"), git(dir, "rev-parse", "HEAD:.env"));
    expect(bash(dir, "git show HEAD~1 --stat").action).toBe("ask");
    expect(bash(dir, "git show HEAD --stat").action).toBe("ask");
  });
  it("property: a names-only show with any blob-naming operand never runs unasked", () => {
    const names = fc.subarray(["--stat", "--name-only", "-s", "--name-status", "--numstat", "--oneline"], {
      minLength: 1,
    });
    const blobby = fc.constantFrom(
      "HEAD~2:cfg/.env.production",
      ":tracked.env",
      "vblob",
      "tblob",
      "HEAD:tracked.env",
      "HEAD~3:cfg/.env.production",
    );
    fc.assert(
      fc.property(names, blobby, fc.boolean(), (opts, b, before) => {
        const command = `git show ${before ? `${b} ${opts.join(" ")}` : `${opts.join(" ")} HEAD ${b}`}`;
        expect(bash(dirty, command).action, command).not.toBe("allow");
      }),
      { numRuns: 40 },
    );
  });
});

describe("git diff and git grep print the work tree's copy: changed files are scanned by content", () => {
  // Only files git's stat check finds changed are read (the rest hold their index blob, checked by id):
  // an edit that puts a key in an innocent name, a racily clean same-size rewrite, a new file added with
  // intent-to-add all still ask; an untouched tree still runs.
  const KEY =
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n";
  it("an edit that puts a key in a tracked source file", () => {
    const dir = join(base, "edited");
    repo(dir);
    expect(bash(dir, "git diff").action).toBe("allow");
    write(join(dir, "src", "a.ts"), `export const a = 1;\n${KEY}`);
    const r = bash(dir, "git diff");
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/src\/a\.ts.*private key/);
    expect(bash(dir, "git grep -n a").action).toBe("ask");
  });
  it("a same-size rewrite in the second of the commit (racily clean)", () => {
    const dir = join(base, "racy");
    repo(dir);
    write(join(dir, "config.js"), "x".repeat(KEY.length));
    git(dir, "add", "config.js");
    git(dir, "commit", "-qm", "c");
    write(join(dir, "config.js"), KEY);
    expect(bash(dir, "git diff").action).toBe("ask");
  });
  it("git diff --cached prints HEAD's side too: a key removed from the index but in HEAD", () => {
    const dir = join(base, "staged");
    repo(dir);
    write(join(dir, "notes.txt"), KEY);
    git(dir, "add", "notes.txt");
    git(dir, "commit", "-qm", "k");
    git(dir, "rm", "-q", "--cached", "notes.txt");
    rmSync(join(dir, "notes.txt"));
    for (const c of ["git diff --cached", "git diff --staged", "git diff --merge-base HEAD"])
      expect(bash(dir, c).action, c).toBe("ask");
  });
  it("plain git diff prints only the changed files: a committed key fixture left alone does not ask", () => {
    const dir = join(base, "fixture");
    repo(dir);
    write(join(dir, "tests", "fixtures", "server.pem"), KEY);
    write(join(dir, "tests", "fixtures", "config.js"), `module.exports = \`${KEY}\`;\n`);
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "fixtures");
    write(join(dir, "src", "a.ts"), "export const a = 3;\n");
    for (const c of ["git diff", "git diff -- src", "git diff-files -p"]) {
      const r = bash(dir, c);
      expect(r.action, `${c}: ${r.why}`).toBe("allow");
    }
    // What prints the fixtures still asks: all of the index, HEAD's side, the history.
    for (const c of ["git grep -n a", "git diff HEAD", "git log -p"])
      expect(bash(dir, c).action, c).toBe("ask");
    // `git diff --cached` prints the staged changes only: none here (overask12); a staged fixture asks.
    expect(bash(dir, "git diff --cached").action).toBe("allow");
    write(join(dir, "tests", "fixtures", "config.js"), `module.exports = \`${KEY}\`; // staged\n`);
    git(dir, "add", "tests/fixtures/config.js");
    expect(bash(dir, "git diff --cached").action).toBe("ask");
    git(dir, "reset", "-q");
    write(join(dir, "tests", "fixtures", "config.js"), `module.exports = \`${KEY}\`;\n`);
    // A change to a fixture prints it.
    write(join(dir, "tests", "fixtures", "config.js"), `module.exports = \`${KEY}\`; // x\n`);
    expect(bash(dir, "git diff").action).toBe("ask");
    write(join(dir, "tests", "fixtures", "config.js"), `module.exports = \`${KEY}\`;\n`);
    write(join(dir, "tests", "fixtures", "server.pem"), `${KEY}\n`);
    expect(bash(dir, "git diff").why).toMatch(/server\.pem/);
  });
  it("a file added with intent to add", () => {
    const dir = join(base, "ita");
    repo(dir);
    write(join(dir, "notes.md"), KEY);
    git(dir, "add", "-N", "notes.md");
    expect(bash(dir, "git diff").action).toBe("ask");
  });
});

describe("git remote -v with a credential in a remote URL", () => {
  it("asks where the URL holds a token, and is not a question where it does not", () => {
    const strict = bash(dirty, "git remote -v");
    expect(strict.why).toMatch(/credential/);
    expect(bash(clean, "git remote -v").why).toBe("");
  });
});

describe("the same commands in a repository without secrets", () => {
  it.each([
    "git log -p",
    "git show HEAD",
    "git diff",
    "git diff HEAD",
    "git grep -n a",
    "git log -S a --oneline",
  ])("%s is allowed", (c) => {
    expect(bash(clean, c).action).toBe("allow");
  });
});

describe("the index reader", () => {
  it.each([2, 3, 4])("reads every path of an index of version %i", (version) => {
    const dir = join(base, `idx${version}`);
    repo(dir);
    for (const p of ["b/very/long/name/one.txt", "b/very/long/name/two.txt", "c.env", "z"])
      write(join(dir, p), "x\n");
    git(dir, "add", "-A");
    git(dir, "update-index", "--index-version", String(version));
    const got = indexPaths(join(dir, ".git", "index"));
    expect("paths" in got && [...got.paths].sort()).toEqual(git(dir, "ls-files").split("\n").sort());
  });
});
