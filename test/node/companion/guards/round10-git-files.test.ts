// Never (red team, round 10, class B): an allow for a read that prints a credential git keeps in its own
// files. `git reflog` asked for a reflog holding `pull https://user:PASS@host` while `cat .git/logs/HEAD`
// was allowed; `git remote get-url NAME` read no legacy `.git/remotes`/`.git/branches` file; `git config
// --get branch.main.remote` was judged by the key's name while git takes a URL there. Each attack is
// proven in a real throwaway repository (the file or git prints the password) and judged with the disk
// as the companion judges it; clean repositories stay allowed.
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { starterPolicy } from "../../../../src/companion/local-policy/starter.ts";
import { factLine } from "../../../../src/policy/call-facts.ts";
import { compilePolicy } from "../../../../src/policy/index.ts";
import { judgeCall } from "../../../../src/policy/judge-call.ts";
import { isGitMetadataPath, PrivateKeyScan } from "../../../../src/policy/secret-families.ts";
import { readOnlyPolicy } from "./disk-fixture.ts";

const policy = readOnlyPolicy();
const compiled = compilePolicy([{ layer: "user", path: "balanced", text: starterPolicy("balanced") }]);
if (!compiled.ok) throw new Error("the balanced starter policy does not compile");
const balanced = compiled.policy;
const disk = diskCheck({ env: {} });
const PASS = "Sup3rS3cretPass";
const ENV = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
let base: string;
let borrowed = "";
let blob = "";
let readme = "";
const repos: Record<string, string> = {};

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", ...args], {
    cwd,
    encoding: "utf8",
    env: ENV,
  }).trim();
}
function repo(name: string): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main", ".");
  writeFileSync(join(dir, "README.md"), "# r\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "first");
  repos[name] = dir;
  return dir;
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
  // A repository borrowing the objects of another one outside the project (a private dotfiles repo).
  const dotfiles = repo("dotfiles");
  writeFileSync(join(dotfiles, "notes-work.txt"), `prod db password: ${PASS}\n`);
  git(dotfiles, "add", "-A");
  git(dotfiles, "commit", "-qm", "notes");
  const borrowing = repo("borrowing");
  writeFileSync(
    join(borrowing, ".git", "objects", "info", "alternates"),
    `${join(dotfiles, ".git", "objects")}\n`,
  );
  borrowed = git(dotfiles, "rev-parse", "HEAD");
  // A vendored repository inside the project: ripgrep applies no parent .gitignore inside it.
  const vendoring = repo("vendoring");
  writeFileSync(join(vendoring, ".gitignore"), ".env\n*.env\n");
  const lib = join(vendoring, "vendor", "lib");
  mkdirSync(lib, { recursive: true });
  git(lib, "init", "-q", ".");
  writeFileSync(join(lib, "prod.env"), `DB_PASSWORD=${PASS}\n`);
  writeFileSync(join(lib, "index.js"), "module.exports = 1;\n");
  // Files git reads by configuration, named relative to the work tree: a committed link to a secret
  // outside, a gitignored .env; and the user's global configuration naming one in every repository.
  const home = join(base, "home");
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, ".netrc"), `machine example.com login u password ${PASS}\n`);
  const revsLink = repo("revslink");
  symlinkSync(join(home, ".netrc"), join(revsLink, "revs.txt"));
  git(revsLink, "config", "blame.ignoreRevsFile", "revs.txt");
  const revsEnv = repo("revsenv");
  writeFileSync(join(revsEnv, ".env"), `API_KEY=${PASS}\n`);
  git(revsEnv, "config", "blame.ignoreRevsFile", ".env");
  const globalRevs = repo("globalrevs");
  symlinkSync(join(home, ".netrc"), join(globalRevs, ".git-blame-ignore-revs"));
  const globalHooks = repo("globalhooks");
  mkdirSync(join(globalHooks, ".githooks"));
  writeFileSync(join(globalHooks, ".githooks", "post-index-change"), "#!/bin/sh\ntouch PWNED\n", {
    mode: 0o755,
  });
  writeFileSync(
    join(base, "gitconfig"),
    "[blame]\n\tignoreRevsFile = .git-blame-ignore-revs\n[core]\n\thooksPath = .githooks\n",
  );
  // Ignore files ripgrep reads otherwise than git: upper case, a byte-order mark, a POSIX class.
  const ignores = repo("ignores");
  const gi: Record<string, string> = {
    upper: "*.ENV\n",
    bom: "\ufeff*.env\n",
    posix: "*.e[[:alpha:]]v\n",
    plain: "*.env\n",
  };
  for (const [dir, text] of Object.entries(gi)) {
    mkdirSync(join(ignores, dir));
    writeFileSync(join(ignores, dir, ".gitignore"), text);
    writeFileSync(join(ignores, dir, "prod.env"), `DB_PASSWORD=${PASS}\n`);
  }
  // A repository arriving with its .git, whose packed-refs and rebase state are links to secrets.
  writeFileSync(join(home, ".git-credentials"), `https://u:${PASS}@github.com\n`);
  const packed = repo("packed");
  symlinkSync(join(home, ".git-credentials"), join(packed, ".git", "packed-refs"));
  const rebase = repo("rebase");
  const state = join(rebase, ".git", "rebase-merge");
  mkdirSync(state);
  const head = git(rebase, "rev-parse", "HEAD");
  writeFileSync(join(state, "head-name"), "refs/heads/main\n");
  writeFileSync(join(state, "onto"), `${head}\n`);
  writeFileSync(join(state, "orig-head"), `${head}\n`);
  writeFileSync(join(state, "interactive"), "");
  symlinkSync(join(home, ".git-credentials"), join(state, "done"));
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
  return execFileSync("bash", ["-c", command], { cwd: repos[name] as string, encoding: "utf8", env: ENV });
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

describe("a repository that borrows another's objects (objects/info/alternates)", () => {
  it("git show ID:PATH of the other repository's commit asks; git status runs", () => {
    const command = `git show ${borrowed}:notes-work.txt`;
    expect(prints("borrowing", command), "git prints the other repository's file").toContain(PASS);
    for (const p of [policy, balanced]) {
      const r = bash("borrowing", command, p);
      expect(r.action, r.why).not.toBe("allow");
    }
    expect(bash("borrowing", command).why).toMatch(/borrows objects/);
    expect(bash("borrowing", "git status").action).toBe("allow");
  });
});

describe("a repository nested in the project (red team, round 10)", () => {
  it("rg and the Grep tool walk it without the parent's .gitignore, as ripgrep does", () => {
    expect(prints("vendoring", "rg -n DB_PASSWORD . || true"), "rg prints the nested prod.env").toContain(
      PASS,
    );
    for (const p of [policy, balanced]) {
      const r = bash("vendoring", "rg -n DB_PASSWORD", p);
      expect(r.action, r.why).not.toBe("allow");
      expect(judge("vendoring", "grep", { pattern: "DB_PASSWORD" }, p).action).not.toBe("allow");
    }
    expect(bash("vendoring", "rg -n DB_PASSWORD").why).toMatch(/prod\.env/);
  });
});

/** Runs `fn` with the user's git configuration at `file` (as git and the companion find it). */
function withGlobal<T>(file: string, fn: () => T): T {
  const saved = process.env.GIT_CONFIG_GLOBAL;
  process.env.GIT_CONFIG_GLOBAL = file;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env.GIT_CONFIG_GLOBAL;
    else process.env.GIT_CONFIG_GLOBAL = saved;
  }
}

describe("files git reads by configuration, relative to the work tree (red team, round 10)", () => {
  it.each([
    ["revslink", "git blame README.md"],
    ["revsenv", "git blame README.md"],
  ])("the repository's own: %s: %s asks", (name, command) => {
    expect(() => prints(name, command)).toThrow(new RegExp(PASS));
    for (const p of [policy, balanced]) expect(bash(name, command, p).action).not.toBe("allow");
  });

  it("the user's global blame.ignoreRevsFile, a committed link to ~/.netrc: asks", () => {
    const global = join(base, "gitconfig");
    const proof = spawnGit("globalrevs", global, ["blame", "README.md"]);
    expect(proof).toContain(PASS);
    withGlobal(global, () => {
      for (const p of [policy, balanced]) {
        const r = bash("globalrevs", "git blame README.md", p);
        expect(r.action, r.why).not.toBe("allow");
      }
      expect(bash("globalrevs", "git blame README.md").why).toMatch(/ignorerevsfile/);
    });
  });

  it("the user's global relative core.hooksPath: the work tree's post-index-change runs on git status", () => {
    const global = join(base, "gitconfig");
    const dir = repos.globalhooks as string;
    // A tracked file's times changed: git status refreshes the index and rewrites it.
    utimesSync(join(dir, "README.md"), new Date(), new Date(Date.now() - 60_000));
    spawnGit("globalhooks", global, ["status"]);
    expect(existsSync(join(dir, "PWNED")), "git status ran the hook").toBe(true);
    withGlobal(global, () => {
      for (const p of [policy, balanced]) {
        const r = bash("globalhooks", "git status", p);
        expect(r.action, r.why).not.toBe("allow");
      }
      expect(bash("globalhooks", "git status").why).toMatch(/hooksPath/);
    });
  });

  it("a plain ignore-revs file of the project stays allowed", () => {
    const global = join(base, "gitconfig");
    writeFileSync(join(repos.clean as string, ".git-blame-ignore-revs"), "# formatting\n");
    withGlobal(global, () => expect(bash("clean", "git blame README.md").action).toBe("allow"));
  });
});

/** git with the user's configuration at `global`: what it prints, errors included. */
function spawnGit(name: string, global: string, args: string[]): string {
  const r = spawnSync("git", args, {
    cwd: repos[name] as string,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_GLOBAL: global, GIT_CONFIG_NOSYSTEM: "1" },
  });
  return `${r.stdout}${r.stderr}`;
}

describe("ignore files as ripgrep reads them (red team, round 10)", () => {
  it.each(["upper", "bom", "posix"])("%s: rg reads prod.env, so the walk does", (dir) => {
    expect(prints("ignores", `rg -n DB_PASSWORD ${dir} || true`)).toContain(PASS);
    const r = bash("ignores", `rg -n DB_PASSWORD ${dir}`, balanced);
    expect(r.action, r.why).not.toBe("allow");
  });
  it("a plain *.env line hides it from rg and the walk alike", () => {
    expect(prints("ignores", "rg -n DB_PASSWORD plain || true")).not.toContain(PASS);
    expect(bash("ignores", "rg -n DB_PASSWORD plain", balanced).action).toBe("allow");
  });
});

describe("symlinks in the repository directory (red team, round 10)", () => {
  it.each([
    ["packed", "git status"],
    ["packed", "git branch"],
    ["rebase", "git status"],
  ])("%s: %s prints the linked file's line, and asks", (name, command) => {
    const r = spawnSync("bash", ["-c", command], { cwd: repos[name] as string, encoding: "utf8", env: ENV });
    expect(`${r.stdout}${r.stderr}`).toContain(PASS);
    for (const p of [policy, balanced]) expect(bash(name, command, p).action).not.toBe("allow");
    expect(bash(name, command).why).toMatch(/symlink/);
  });
});

describe("a raw object id no history names (red team, round 10, class C)", () => {
  it("git show, cat-file -p and diff of a dangling .env blob ask; a named blob and commits run", () => {
    for (const command of [
      `git show ${blob}`,
      `git show ${blob.slice(0, 10)}`,
      `git cat-file -p ${blob}`,
      `git diff ${blob} ${readme}`,
    ]) {
      expect(prints("dangling", command), command).toContain(PASS);
      for (const p of [policy, balanced]) {
        const r = bash("dangling", command, p);
        expect(r.action, `${command}: ${r.why}`).not.toBe("allow");
      }
      expect(bash("dangling", command, balanced).why).toMatch(
        /no commit, index entry, reflog or stash names/,
      );
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
