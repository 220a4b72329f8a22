// Never: an allow for a read-only git call when git reads a file of the repository's state, or one its
// configuration (any layer: the user's ~/.gitconfig too) names, that leads out of the project or onto a
// secret, and prints its lines in an error; when the user's relative core.hooksPath makes the project's
// hook run on `git status`; when alternates borrow another repository's objects (red team, round 10).
// Each attack is first confirmed with real git (fake HOME), then judged with the disk; the same calls in
// a plain repository stay allowed.
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { factLine } from "../../../../src/policy/call-facts.ts";
import { judgeCall } from "../../../../src/policy/judge-call.ts";
import { readOnlyPolicy } from "./disk-fixture.ts";

const policy = readOnlyPolicy();
let base: string;
let home: string;
let env: NodeJS.ProcessEnv;
const CRED = "https://u:GITCREDSECRET_RT10@github.com";

/** Real git with the fake home (its ~/.gitconfig is the user's global configuration here). */
function run(cwd: string, ...args: string[]) {
  return spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@e", ...args], {
    cwd,
    env: { ...env, PATH: process.env.PATH },
    encoding: "utf8",
  });
}
const git = (cwd: string, ...args: string[]) => {
  const r = run(cwd, ...args);
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
};

function repo(name: string): string {
  const ws = join(base, name);
  mkdirSync(ws, { recursive: true });
  git(ws, "init", "-q", ".");
  writeFileSync(join(ws, "a.txt"), "one\n");
  git(ws, "add", "a.txt");
  git(ws, "commit", "-qm", "one");
  return ws;
}

function bash(ws: string, command: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const disk = diskCheck({ env: { ...env, ...extraEnv } });
  const j = judgeCall(policy, { tool: "bash", input: { command }, cwd: ws, home }, { hasUI: true }, disk);
  return { action: j.record.action, why: j.facts.map(factLine).join("\n") };
}

function globalConfig(text: string): void {
  writeFileSync(join(home, ".gitconfig"), text);
}

beforeAll(() => {
  mkdirSync("/tmp/rt10git", { recursive: true });
  base = realpathSync(execFileSync("mktemp", ["-d", "/tmp/rt10git/t-XXXXXX"], { encoding: "utf8" }).trim());
  home = join(base, "home");
  mkdirSync(home);
  writeFileSync(join(home, ".git-credentials"), `${CRED}\n`);
  writeFileSync(join(home, ".netrc"), "machine example.com login u password NETRCSECRET_RT10\n");
  env = { HOME: home, GIT_CONFIG_NOSYSTEM: "1", XDG_CONFIG_HOME: join(home, ".config") };
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("A: files git reads through a link or a config-named path, printed in errors", () => {
  it("the user's global blame.ignoreRevsFile (relative) + a committed symlink to ~/.git-credentials", () => {
    const ws = repo("blame-global");
    globalConfig("[blame]\n\tignoreRevsFile = .git-blame-ignore-revs\n");
    symlinkSync(join(home, ".git-credentials"), join(ws, ".git-blame-ignore-revs"));
    try {
      expect(run(ws, "blame", "a.txt").stderr).toContain("GITCREDSECRET_RT10");
      const r = bash(ws, "git blame a.txt");
      expect(r.action).toBe("ask");
      expect(r.why).toMatch(/ignorerevsfile.*out of the workspace/);
    } finally {
      globalConfig("");
    }
  });
  it("the same global setting with a plain ignore-revs file in the project stays allowed", () => {
    const ws = repo("blame-plain");
    globalConfig("[blame]\n\tignoreRevsFile = .git-blame-ignore-revs\n");
    writeFileSync(join(ws, ".git-blame-ignore-revs"), "# formatting commits\n");
    try {
      expect(run(ws, "blame", "a.txt").status).toBe(0);
      expect(bash(ws, "git blame a.txt").action).toBe("allow");
    } finally {
      globalConfig("");
    }
  });
  it("the repository's blame.ignoreRevsFile = .env prints the dotenv's first line", () => {
    const ws = repo("blame-env");
    writeFileSync(join(ws, ".env"), "API_KEY=DOTENVSECRET_RT10\n");
    git(ws, "config", "blame.ignoreRevsFile", ".env");
    expect(run(ws, "blame", "a.txt").stderr).toContain("DOTENVSECRET_RT10");
    const r = bash(ws, "git blame a.txt");
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/\.env`, a secret/);
  });
  it("an included global file's core.excludesFile leading out through a project link", () => {
    const ws = repo("excludes-include");
    writeFileSync(join(home, "extra.gitconfig"), "[core]\n\texcludesFile = ignore-list\n");
    globalConfig("[include]\n\tpath = extra.gitconfig\n");
    symlinkSync(join(home, ".netrc"), join(ws, "ignore-list"));
    try {
      const r = bash(ws, "git status");
      expect(r.action).toBe("ask");
      expect(r.why).toMatch(/extra\.gitconfig.*excludesfile/);
    } finally {
      globalConfig("");
    }
  });

  const links: [string, RegExp][] = [
    ["packed-refs", /unexpected line in \.git\/packed-refs: https:\/\/u:GITCRED/],
    ["shallow", /GITCREDSECRET_RT10/],
  ];
  for (const [file, printed] of links)
    it(`.git/${file} a link to ~/.git-credentials: git status and git branch ask`, () => {
      const ws = repo(`link-${file}`);
      symlinkSync(join(home, ".git-credentials"), join(ws, ".git", file));
      const shown = run(ws, "log", "--oneline", "-1");
      expect(`${shown.stdout}${shown.stderr}`).toMatch(printed);
      for (const c of ["git status", "git branch", "git log --oneline -1"]) {
        const r = bash(ws, c);
        expect(r.action, c).toBe("ask");
        expect(r.why, c).toContain(`.git/${file}\` is a link`);
      }
    });
  it("rebase-merge/done and git-rebase-todo as links: git status prints them, and asks", () => {
    const ws = repo("rebase");
    const rm = join(ws, ".git", "rebase-merge");
    mkdirSync(rm);
    const head = git(ws, "rev-parse", "HEAD").trim();
    writeFileSync(join(rm, "head-name"), "refs/heads/master\n");
    writeFileSync(join(rm, "onto"), `${head}\n`);
    writeFileSync(join(rm, "orig-head"), `${head}\n`);
    writeFileSync(join(rm, "interactive"), "");
    symlinkSync("../../../home/.git-credentials", join(rm, "done"));
    symlinkSync(join(home, ".netrc"), join(rm, "git-rebase-todo"));
    expect(run(ws, "status").stdout).toContain("GITCREDSECRET_RT10");
    const r = bash(ws, "git status");
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/rebase-merge\/(done|git-rebase-todo)` is a link/);
  });
  it("a link inside .git to another file of .git, and hooks linked into the work tree, stay allowed", () => {
    const ws = repo("inner-links");
    mkdirSync(join(ws, "scripts"));
    writeFileSync(join(ws, "scripts", "pre-commit"), "#!/bin/sh\n");
    symlinkSync("../../scripts/pre-commit", join(ws, ".git", "hooks", "pre-commit"));
    symlinkSync("exclude", join(ws, ".git", "info", "exclude-copy"));
    expect(bash(ws, "git status").action).toBe("allow");
    expect(bash(ws, "git log --oneline").action).toBe("allow");
  });
  it("a local clone (its object store hard-linked to the origin's) stays allowed", () => {
    const origin = repo("clone-origin");
    git(origin, "commit-graph", "write", "--reachable");
    git(origin, "gc", "-q");
    git(base, "clone", "-q", origin, join(base, "clone-local"));
    const ws = join(base, "clone-local");
    for (const c of ["git status", "git log -p", "git branch", "git blame a.txt"])
      expect(bash(ws, c).action, c).toBe("allow");
  });
  it("property: any state file of .git made a link out of the project, or onto .env, makes git status ask", () => {
    const ws = repo("prop");
    writeFileSync(join(ws, ".env"), "API_KEY=x\n");
    const states = [
      "packed-refs",
      "shallow",
      "ORIG_HEAD",
      "FETCH_HEAD",
      "MERGE_MSG",
      "info/exclude",
      "info/grafts",
      "objects/info/alternates",
      "logs/HEAD",
      "refs/heads/topic",
      "description",
    ];
    const targets = [join(home, ".git-credentials"), join(home, ".netrc"), join(ws, ".env"), "/etc/hostname"];
    fc.assert(
      fc.property(fc.constantFrom(...states), fc.constantFrom(...targets), (state, target) => {
        const p = join(ws, ".git", state);
        mkdirSync(join(p, ".."), { recursive: true });
        rmSync(p, { force: true });
        symlinkSync(target, p);
        try {
          return bash(ws, "git status").action === "ask";
        } finally {
          unlinkSync(p);
        }
      }),
      { numRuns: 30 },
    );
    expect(bash(ws, "git status").action).toBe("allow");
  });
});

describe("B: the user's relative core.hooksPath runs the project's hooks", () => {
  function hooked(name: string): { ws: string; marker: string } {
    const ws = repo(name);
    const marker = join(base, `${name}-ran`);
    mkdirSync(join(ws, ".githooks"));
    writeFileSync(join(ws, ".githooks", "post-index-change"), `#!/bin/sh\ntouch ${marker}\n`);
    chmodSync(join(ws, ".githooks", "post-index-change"), 0o755);
    return { ws, marker };
  }
  function staleStat(ws: string): void {
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(ws, "a.txt"), past, past);
  }
  it("~/.gitconfig core.hooksPath = .githooks: git status runs .githooks/post-index-change; asks", () => {
    const { ws, marker } = hooked("hooks-global");
    globalConfig("[core]\n\thooksPath = .githooks\n");
    try {
      staleStat(ws);
      git(ws, "status", "--short");
      expect(existsSync(marker)).toBe(true);
      const r = bash(ws, "git status");
      expect(r.action).toBe("ask");
      expect(r.why).toMatch(/hookspath = \.githooks.*post-index-change/);
    } finally {
      globalConfig("");
    }
  });
  it("the same from $XDG_CONFIG_HOME/git/config, an include, or GIT_CONFIG_COUNT asks too", () => {
    const { ws } = hooked("hooks-layers");
    mkdirSync(join(home, ".config", "git"), { recursive: true });
    const xdg = join(home, ".config", "git", "config");
    writeFileSync(xdg, "[core]\n\thooksPath = .githooks\n");
    expect(bash(ws, "git status").action).toBe("ask");
    writeFileSync(xdg, "");
    writeFileSync(join(home, "inc"), "[core]\n\thooksPath = .githooks\n");
    globalConfig(`[includeIf "gitdir:${base}/"]\n\tpath = inc\n`);
    expect(bash(ws, "git status").action).toBe("ask");
    globalConfig("");
    const viaEnv = {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "core.hooksPath",
      GIT_CONFIG_VALUE_0: ".githooks",
    };
    expect(bash(ws, "git status", viaEnv).action).toBe("ask");
    expect(bash(ws, "git status").action).toBe("allow");
  });
  it("a relative hooksPath with no read-only hook in the project, or an absolute one of the user's, stays allowed", () => {
    const ws = repo("hooks-none");
    globalConfig("[core]\n\thooksPath = .githooks\n");
    try {
      expect(bash(ws, "git status").action).toBe("allow");
      const own = join(home, "my-hooks");
      mkdirSync(own);
      writeFileSync(join(own, "post-index-change"), "#!/bin/sh\n");
      chmodSync(join(own, "post-index-change"), 0o755);
      globalConfig(`[core]\n\thooksPath = ${own}\n`);
      expect(bash(ws, "git status").action).toBe("allow");
    } finally {
      globalConfig("");
    }
  });
  it("a user's program setting with a relative path (core.fsmonitor = ./x) resolves in the project: asks", () => {
    const ws = repo("fsmon");
    globalConfig("[core]\n\tfsmonitor = ./tools/fsmon\n\tpager = less -R\n");
    try {
      expect(bash(ws, "git status").why).toMatch(/fsmonitor = \.\/tools\/fsmon/);
      globalConfig("[core]\n\tpager = less -R\n\teditor = vim\n");
      expect(bash(ws, "git status").action).toBe("allow");
    } finally {
      globalConfig("");
    }
  });
});

describe("C: alternates outside the project", () => {
  it("git show <id>:file prints another repository's file; history printers ask, git status does not", () => {
    const other = repo("dotfiles");
    writeFileSync(join(other, "notes-work.txt"), "prod db password: hunter2_RT10\n");
    git(other, "add", "notes-work.txt");
    git(other, "commit", "-qm", "notes");
    const id = git(other, "rev-parse", "HEAD").trim();
    const ws = repo("alt");
    writeFileSync(join(ws, ".git", "objects", "info", "alternates"), `${join(other, ".git", "objects")}\n`);
    expect(git(ws, "show", `${id}:notes-work.txt`)).toContain("hunter2_RT10");
    for (const c of [`git show ${id}:notes-work.txt`, `git cat-file -p ${id}`, "git log --oneline"]) {
      const r = bash(ws, c);
      expect(r.action, c).toBe("ask");
      expect(r.why, c).toMatch(/alternates.*outside the project/);
    }
    expect(bash(ws, "git status").action).toBe("allow");
  });
  it("alternates inside the project, or none, keep git show allowed; GIT_ALTERNATE_OBJECT_DIRECTORIES outside asks", () => {
    const ws = repo("alt-env");
    expect(bash(ws, "git show HEAD:a.txt").action).toBe("allow");
    const r = bash(ws, "git show HEAD:a.txt", {
      GIT_ALTERNATE_OBJECT_DIRECTORIES: join(base, "dotfiles", ".git", "objects"),
    });
    expect(r.action).toBe("ask");
    expect(r.why).toMatch(/GIT_ALTERNATE_OBJECT_DIRECTORIES/);
  });
});
