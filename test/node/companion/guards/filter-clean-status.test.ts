// Issue 20: a clean filter of the user's configuration (`filter.X.clean` in ~/.gitconfig), selected by the
// project's `.gitattributes`, runs on `git status` and on a diff of the work tree that prints no line (`git
// diff --stat`): git hashes a changed file through it. Round 13 made only the content printers ask for such a
// driver. Real git shows the run (the program leaves a mark; strace shows its exec); now every unit that runs
// filters asks, while `git status` stays allowed where no attribute selects the driver, or with git-lfs's.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { has } from "../../policy/shell/proven-case.ts";
import { gitWith, judgeOnDisk, LFS_FILTER } from "./disk-fixture.ts";

const LFS = LFS_FILTER;

let base: string;
let home: string;
let ws: string;
let mark: string;
let env: NodeJS.ProcessEnv;

/** Real git with the fake home (its ~/.gitconfig is the user's global configuration here). */
const git = (...args: string[]): string => gitWith(ws, env, ...args);

const globalConfig = (text: string) => writeFileSync(join(home, ".gitconfig"), text);
const attributes = (rel: string, text: string) => writeFileSync(join(ws, rel), text);

function bash(command: string) {
  const disk = diskCheck({ env });
  return judgeOnDisk(BALANCED, { tool: "bash", input: { command }, cwd: ws, workspace: ws, home }, { disk });
}

/** Whether real git ran the clean program for `args`, after a change that keeps the file's size. */
function runsClean(...args: string[]): boolean {
  rmSync(mark, { force: true });
  writeFileSync(join(ws, "sub", "notes.txt"), "jello\n");
  try {
    git(...args);
  } catch {
    // `git diff --quiet` exits 1 on a change
  }
  const ran = existsSync(mark);
  git("checkout", "-q", "--", "sub/notes.txt");
  return ran;
}

beforeAll(() => {
  mkdirSync("/tmp/airlock-filter", { recursive: true });
  base = realpathSync(
    execFileSync("mktemp", ["-d", "/tmp/airlock-filter/t-XXXXXX"], { encoding: "utf8" }).trim(),
  );
  home = join(base, "home");
  ws = join(base, "ws");
  mark = join(base, "ran");
  mkdirSync(join(home, ".config", "git"), { recursive: true });
  mkdirSync(join(ws, "sub"), { recursive: true });
  writeFileSync(join(base, "clean"), `#!/bin/sh\necho ran >> ${mark}\ncat\n`);
  chmodSync(join(base, "clean"), 0o755);
  env = { HOME: home, GIT_CONFIG_NOSYSTEM: "1", XDG_CONFIG_HOME: join(home, ".config") };
  globalConfig("");
  git("init", "-q", ".");
  writeFileSync(join(ws, "sub", "notes.txt"), "hello\n");
  writeFileSync(join(ws, "README.md"), "# project\n");
  git("add", "-A");
  git("commit", "-qm", "one");
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const RUN_FILTERS = ["git status", "git status --porcelain", "git diff --stat", "git diff --name-only"];

describe("a user's clean filter selected by the project's attributes", () => {
  it("real git runs it on git status and on a diff that prints no line", () => {
    globalConfig(`[filter "rot"]\n\tclean = ${join(base, "clean")}\n`);
    attributes(".gitattributes", "*.txt filter=rot\n");
    try {
      for (const c of [...RUN_FILTERS, "git diff --quiet", "git describe --dirty --always"])
        expect(runsClean(...c.split(" ").slice(1)), c).toBe(true);
      expect(runsClean("log", "-1"), "git log").toBe(false);
      if (has("strace")) {
        writeFileSync(join(ws, "sub", "notes.txt"), "jello\n");
        const traced = spawnSync("strace", ["-f", "-qq", "-e", "trace=execve", "git", "status"], {
          cwd: ws,
          env: { ...env, PATH: process.env.PATH },
          encoding: "utf8",
        });
        git("checkout", "-q", "--", "sub/notes.txt");
        expect(traced.stderr).toContain(`execve("${join(base, "clean")}"`);
      }
    } finally {
      attributes(".gitattributes", "");
      globalConfig("");
    }
  });

  it.each([
    [".gitattributes", "*.txt filter=rot\n"],
    ["sub/.gitattributes", "notes.txt  text  filter=rot\n"],
    [".git/info/attributes", "* filter=rot\n"],
  ])("%s selecting it: those units ask, naming the key", (file, text) => {
    globalConfig(`[filter "rot"]\n\tclean = ${join(base, "clean")}\n`);
    mkdirSync(join(ws, ".git", "info"), { recursive: true });
    attributes(file, text);
    try {
      for (const c of [...RUN_FILTERS, "git ls-files -m", "git describe --dirty"]) {
        const r = bash(c);
        expect(r.action, `${c}\n${r.why}`).toBe("ask");
        expect(r.why, c).toContain("sets filter.rot.clean, a program git runs on the files");
      }
      // A long-running filter process runs as well.
      globalConfig('[filter "rot"]\n\tprocess = my-filter --serve\n');
      expect(bash("git status").why).toContain("sets filter.rot.process");
      // Commits, branches and refs: no work-tree file is hashed.
      for (const c of ["git log --oneline", "git branch", "git rev-parse HEAD"])
        expect(bash(c).action, c).toBe("allow");
    } finally {
      attributes(file, "");
      globalConfig("");
    }
  });
});

describe("what stays allowed", () => {
  it("git status with the driver but no attribute selecting it, or another driver selected", () => {
    globalConfig(`[filter "rot"]\n\tclean = ${join(base, "clean")}\n`);
    try {
      expect(bash("git status").action).toBe("allow");
      attributes(".gitattributes", "*.txt filter=other diff=rot\n");
      expect(bash("git status").action).toBe("allow");
    } finally {
      attributes(".gitattributes", "");
      globalConfig("");
    }
  });

  it("git-lfs's standard filter, selected: git status and git diff --stat run", () => {
    globalConfig(LFS);
    attributes(".gitattributes", "*.bin filter=lfs diff=lfs merge=lfs -text\n");
    try {
      for (const c of RUN_FILTERS) expect(bash(c).action, c).toBe("allow");
    } finally {
      attributes(".gitattributes", "");
      globalConfig("");
    }
  });
});
