// Issue 20: `git log`, `git log --oneline` and `git blame FILE` print commits of HEAD's walk only, so the
// message scan reads that walk (`git rev-list HEAD`) instead of typing every object of the database (which
// opens each loose object: most of a cold decision's time). What it must not open: a commit git does
// print that the walk would miss. Each attack is proven with real git (it prints the token) and judged
// with the disk as the companion judges it; each relaxed form is proven too (git does not print it).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { factLine } from "../../../../src/policy/call-facts.ts";
import { judgeCall } from "../../../../src/policy/judge-call.ts";
import { firstCommitRepo, NO_CONFIG_ENV, plainGit, readOnlyPolicy } from "./disk-fixture.ts";

const policy = readOnlyPolicy();
const disk = diskCheck({ env: {} });
// Built at run time so no token shape sits in this file.
const TOKEN = `ghp_${"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"}`;
let base: string;
let n = 0;
const git = plainGit;

/** A repository with two commits on main (its reflog is forgotten by each test: only objects and refs hold anything). */
function repo(): string {
  const dir = firstCommitRepo(join(base, `r${n++}`));
  writeFileSync(join(dir, "README.md"), "# r\nmore\n");
  git(dir, "commit", "-qam", "second");
  return dir;
}

/** A commit holding the token, made from HEAD's tree and parent, reachable from nothing. */
function dangling(dir: string): string {
  return git(dir, "commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", `secret ${TOKEN}`);
}

function forget(dir: string): void {
  git(dir, "reflog", "expire", "--expire=now", "--all");
}

function judge(dir: string, command: string) {
  const j = judgeCall(
    policy,
    { tool: "bash", input: { command }, cwd: dir, home: join(base, "home") },
    { hasUI: true },
    disk,
  );
  return { action: j.record.action, why: j.facts.map(factLine).join("\n") };
}

/** What git prints for the command (its words split on spaces), the proof either way. */
function prints(dir: string, command: string): string {
  return execFileSync("git", ["--no-pager", ...command.split(" ").slice(1)], {
    cwd: dir,
    encoding: "utf8",
    env: NO_CONFIG_ENV,
  });
}

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-headwalk-")));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("attacks: a commit git prints that HEAD's walk alone would miss still asks", () => {
  it("a dangling commit named by id, by a ref, or by --all / --reflog", () => {
    const dir = repo();
    const id = dangling(dir);
    forget(dir);
    for (const command of [`git log ${id}`, `git show ${id}`, `git log -1 ${id}`]) {
      expect(prints(dir, command), command).toContain(TOKEN);
      const r = judge(dir, command);
      expect(r.action, `${command}: ${r.why}`).toBe("ask");
    }
    git(dir, "update-ref", "refs/heads/other", id);
    for (const command of [
      "git log --all",
      "git log other",
      "git log --branches --oneline",
      "git log main..other",
    ]) {
      expect(prints(dir, command), command).toContain(TOKEN);
      expect(judge(dir, command).action, command).toBe("ask");
    }
  });

  it("grafts make HEAD's walk reach a dangling commit: the walk read follows them as git does", () => {
    const dir = repo();
    const id = dangling(dir);
    forget(dir);
    const head = git(dir, "rev-parse", "HEAD");
    mkdirSync(join(dir, ".git", "info"), { recursive: true });
    writeFileSync(join(dir, ".git", "info", "grafts"), `${head} ${id}\n`);
    expect(prints(dir, "git log --oneline")).toContain(TOKEN);
    for (const command of ["git log", "git log --oneline", "git blame README.md"]) {
      const r = judge(dir, command);
      expect(r.action, `${command}: ${r.why}`).toBe("ask");
    }
  });

  it("a replace ref puts another commit in HEAD's walk: the whole database is read", () => {
    const dir = repo();
    const id = git(dir, "commit-tree", "HEAD^{tree}", "-m", `replacement ${TOKEN}`);
    git(dir, "replace", git(dir, "rev-parse", "HEAD"), id);
    forget(dir);
    expect(prints(dir, "git log --oneline")).toContain(TOKEN);
    for (const command of ["git log", "git log --oneline", "git blame README.md"]) {
      const r = judge(dir, command);
      expect(r.action, command).toBe("ask");
      expect(r.why, command).toMatch(/the repository has replace refs/);
    }
  });

  it("a token deep in HEAD's walk (past 1,000 commits) is found by git log and git blame", () => {
    const dir = repo();
    git(dir, "commit", "-q", "--allow-empty", "-m", `old ${TOKEN}`);
    writeFileSync(join(dir, "README.md"), `# r\nmore\n${TOKEN.slice(0, 4)}\n`);
    git(dir, "commit", "-qam", "touch readme");
    const tip = git(dir, "rev-parse", "HEAD");
    const stream = Array.from(
      { length: 1_100 },
      (_, k) =>
        `commit refs/heads/main\ncommitter a <a@b> ${1_700_000_000 + k} +0000\ndata 5\nc${String(k).padStart(4, "0")}\n${k === 0 ? `from ${tip}\n` : ""}\n`,
    ).join("");
    execFileSync("git", ["fast-import", "--quiet"], { cwd: dir, input: stream, env: NO_CONFIG_ENV });
    git(dir, "reset", "-q", "--hard", "main");
    forget(dir);
    expect(prints(dir, "git log --oneline")).toContain(TOKEN);
    for (const command of ["git log", "git log --oneline", "git log -p", "git blame README.md"])
      expect(judge(dir, command).action, command).toBe("ask");
    expect(judge(dir, "git log -5").action).toBe("allow");
  });

  it("blame with a revision, --reverse or -S reads the whole database", () => {
    const dir = repo();
    const id = dangling(dir);
    forget(dir);
    git(dir, "update-ref", "refs/heads/other", id);
    writeFileSync(join(dir, "revs"), `${id}\n`);
    for (const command of [
      "git blame other README.md",
      "git blame other -- README.md",
      "git blame -S revs README.md",
    ])
      expect(judge(dir, command).action, command).toBe("ask");
  });
});

describe("what the walk allows: git prints no token", () => {
  // Once skipped (stop 38): in fresh-clone CI runs `git log` asked here, naming a commit. The replace-ref test
  // above had read its repository's clean HEAD commit while replaced by one holding the token, and kept that
  // answer under the clean commit's id; made in the same second, this repository's HEAD is the same commit
  // (replaced-objects.test.ts; the guards now read objects with --no-replace-objects). A walk that misses its
  // 2 s limit on a loaded machine (the documented fallback, which asks) is judged again.
  it("a dangling commit, another branch, a tag object: git log, --oneline, -p and blame run", () => {
    const dir = repo();
    const id = dangling(dir);
    git(dir, "update-ref", "refs/heads/other", id);
    git(dir, "tag", "-a", "v1", "-m", `tagged ${TOKEN}`);
    forget(dir);
    for (const command of [
      "git log",
      "git log --oneline",
      "git log --stat",
      "git blame README.md",
      "git blame -L 1,2 README.md",
    ]) {
      expect(prints(dir, command), command).not.toContain(TOKEN);
      let r = judge(dir, command);
      for (let attempt = 0; attempt < 2 && /did not answer within/.test(r.why); attempt++)
        r = judge(dir, command);
      expect(r.action, `${command}: ${r.why}`).toBe("allow");
    }
  });

  it("with HEAD's walk unreadable (an unborn branch) the whole database is read, and the reason says so", () => {
    const dir = repo();
    dangling(dir);
    forget(dir);
    git(dir, "symbolic-ref", "HEAD", "refs/heads/unborn");
    expect(() => prints(dir, "git log")).toThrow();
    const r = judge(dir, "git log --oneline");
    expect(r.action, r.why).toBe("ask");
    expect(r.why).toMatch(
      /every commit of the database was read: HEAD's walk \(`git rev-list HEAD`\) failed/,
    );
  });
});

describe("property: allowed ⇒ git's own output holds no token", () => {
  const place = fc.constantFrom("head", "older", "branch", "dangling", "tag", "none");
  const command = fc.constantFrom(
    "git log",
    "git log --oneline",
    "git log -1",
    "git log -2 --format=%B",
    "git blame README.md",
    "git log --all --oneline",
    "git log other",
    "git show -s",
  );
  it("for a token placed anywhere in a small history", () => {
    fc.assert(
      fc.property(place, command, (where, cmd) => {
        const dir = repo();
        if (where === "head") git(dir, "commit", "-q", "--allow-empty", "-m", `h ${TOKEN}`);
        if (where === "older") {
          git(dir, "commit", "-q", "--allow-empty", "-m", `o ${TOKEN}`);
          git(dir, "commit", "-q", "--allow-empty", "-m", "newer");
        }
        const token = where === "dangling" || where === "branch" ? dangling(dir) : null;
        const clean = git(dir, "commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", "clean");
        git(dir, "update-ref", "refs/heads/other", where === "branch" && token !== null ? token : clean);
        if (where === "tag") git(dir, "tag", "-a", "v1", "-m", `t ${TOKEN}`);
        forget(dir);
        const r = judge(dir, cmd);
        if (r.action === "allow") expect(prints(dir, cmd), `${where}: ${cmd}`).not.toContain(TOKEN);
        // What git prints with the token, the engine never allows.
        if (prints(dir, cmd).includes(TOKEN)) expect(r.action, `${where}: ${cmd}`).not.toBe("allow");
      }),
      { numRuns: 30 },
    );
  });
});
