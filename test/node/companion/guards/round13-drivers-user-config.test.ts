// Never (red team, round 13): an allow for a git call that prints contents when the USER's configuration
// defines a diff or filter driver. The project's `.gitattributes` (which the agent writes) picks the driver
// per file (`notes.txt diff=rot`), so a common `diff.gpg.textconv = gpg --decrypt` in ~/.gitconfig makes
// `git log -p`, `git show`, `git diff` print what the program makes of any file the agent chose, and any
// driver runs a program the judge did not see. Here a ROT13 textconv stands in for the decryption: real git
// prints the plaintext, which the file never holds. git-lfs's standard filter (`git lfs install`) is not
// such a driver: an everyday `git diff` stays allowed with it.
import { execFileSync } from "node:child_process";
import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED as balanced } from "../../policy/shell/policies.ts";
import { gitWith, judgeOnDisk, LFS_FILTER, readOnlyPolicy } from "./disk-fixture.ts";

const readOnly = readOnlyPolicy();
/** The secret as the file holds it (ROT13) and as the driver prints it. */
const STORED = "qo cnffjbeq uhagre2_eg13";
const PLAIN = "db password hunter2_rt13";
const ROT13 = "tr A-Za-z N-ZA-Mn-za-m <";
const LFS = LFS_FILTER;

let base: string;
let home: string;
let ws: string;
let env: NodeJS.ProcessEnv;

/** Real git with the fake home (its ~/.gitconfig is the user's global configuration here). */
const git = (...args: string[]): string => gitWith(ws, env, ...args);

function bash(command: string, extraEnv: NodeJS.ProcessEnv = {}, policy = readOnly) {
  const disk = diskCheck({ env: { ...env, ...extraEnv } });
  return judgeOnDisk(policy, { tool: "bash", input: { command }, cwd: ws, home }, { disk });
}

function globalConfig(text: string): void {
  writeFileSync(join(home, ".gitconfig"), text);
}

beforeAll(() => {
  mkdirSync("/tmp/rt13drv", { recursive: true });
  base = realpathSync(execFileSync("mktemp", ["-d", "/tmp/rt13drv/t-XXXXXX"], { encoding: "utf8" }).trim());
  home = join(base, "home");
  ws = join(base, "ws");
  mkdirSync(join(home, ".config", "git"), { recursive: true });
  mkdirSync(ws);
  env = { HOME: home, GIT_CONFIG_NOSYSTEM: "1", XDG_CONFIG_HOME: join(home, ".config") };
  globalConfig("");
  git("init", "-q", ".");
  writeFileSync(join(ws, "notes.txt"), `${STORED}\n`);
  writeFileSync(join(ws, ".gitattributes"), "notes.txt diff=rot filter=rot\n");
  git("add", "-A");
  git("commit", "-qm", "one");
  // A change in the work tree, so `git diff` has something to print.
  writeFileSync(join(ws, "notes.txt"), `${STORED}\nZBER=k\n`);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const PRINTERS = [
  "git log -p",
  "git show",
  "git show HEAD",
  "git diff",
  "git diff HEAD",
  "git blame notes.txt",
  "git cat-file --textconv HEAD:notes.txt",
];

describe("a driver in the user's configuration, picked by the project's .gitattributes: asks (written first)", () => {
  it("real git prints what the user's textconv makes of the file, which the file never holds", () => {
    globalConfig(`[diff "rot"]\n\ttextconv = ${ROT13}\n`);
    try {
      for (const args of [["log", "-p"], ["show"], ["diff", "HEAD"], ["blame", "notes.txt"]])
        expect(git(...args), args.join(" ")).toContain(PLAIN);
    } finally {
      globalConfig("");
    }
  });

  it("every git call that prints contents asks, naming the key and the file, under a read-only policy and the balanced starter", () => {
    globalConfig(`[diff "rot"]\n\ttextconv = ${ROT13}\n`);
    try {
      for (const c of PRINTERS) {
        const r = bash(c);
        expect(r.action, `${c}\n${r.why}`).toBe("ask");
        expect(r.why, c).toContain(
          "git's configuration (`~/.gitconfig`) sets diff.rot.textconv: a program git runs on the files the project's .gitattributes gives it",
        );
        expect(bash(c, {}, balanced).action, c).toBe("ask");
      }
    } finally {
      globalConfig("");
    }
  });

  it.each([
    ['[diff "rot"]\n\tcommand = ./x\n', "diff.rot.command"],
    ['[diff "rot"]\n\tcommand = difft\n', "diff.rot.command"],
    [`[filter "rot"]\n\tclean = ${ROT13}\n`, "filter.rot.clean"],
    ['[filter "rot"]\n\tsmudge = cat\n', "filter.rot.smudge"],
    ['[filter "rot"]\n\tprocess = my-filter --serve\n', "filter.rot.process"],
    [`${LFS}[filter "crypt"]\n\tsmudge = git-crypt smudge\n`, "filter.crypt.smudge"],
    // git-lfs's name with another program is not git-lfs's filter.
    ['[filter "lfs"]\n\tclean = sh -c evil\n', "filter.lfs.clean"],
    ['[filter "lfs"]\n\tprocess = git-lfs filter-process; touch x\n', "filter.lfs.process"],
  ])("%j asks for git diff and git log -p (%s)", (text, key) => {
    globalConfig(text);
    try {
      for (const c of ["git diff", "git log -p"]) {
        const r = bash(c);
        expect(r.action, `${c}\n${r.why}`).toBe("ask");
        expect(r.why, c).toContain(`sets ${key}`);
      }
    } finally {
      globalConfig("");
    }
  });

  it("from every layer git reads: $XDG_CONFIG_HOME/git/config, an include, GIT_CONFIG_GLOBAL, the system file, the environment", () => {
    const driver = `[diff "rot"]\n\ttextconv = ${ROT13}\n`;
    const xdg = join(home, ".config", "git", "config");
    writeFileSync(xdg, driver);
    expect(bash("git log -p").why).toContain("(`~/.config/git/config`) sets diff.rot.textconv");
    writeFileSync(xdg, "");
    writeFileSync(join(home, "inc"), driver);
    globalConfig(`[includeIf "gitdir:${base}/"]\n\tpath = inc\n`);
    expect(bash("git log -p").why).toContain("(`~/inc`) sets diff.rot.textconv");
    globalConfig("");
    writeFileSync(join(base, "global"), driver);
    expect(bash("git log -p", { GIT_CONFIG_GLOBAL: join(base, "global") }).action).toBe("ask");
    writeFileSync(join(base, "system"), driver);
    expect(
      bash("git log -p", { GIT_CONFIG_NOSYSTEM: "", GIT_CONFIG_SYSTEM: join(base, "system") }).why,
    ).toContain(`(\`${join(base, "system")}\`) sets diff.rot.textconv`);
    const viaEnv = {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "diff.rot.textconv",
      GIT_CONFIG_VALUE_0: ROT13,
    };
    expect(bash("git show", viaEnv).why).toContain("GIT_CONFIG_KEY_0");
    expect(bash("git log -p").action).toBe("allow");
  });
});

describe("what stays allowed", () => {
  it("git-lfs's standard filter (git lfs install, with or without --skip-smudge): git diff, log -p, show run", () => {
    const skip = LFS.replace("smudge -- %f", "smudge --skip -- %f").replace(
      "filter-process",
      "filter-process --skip",
    );
    for (const text of [LFS, skip]) {
      globalConfig(text);
      try {
        for (const c of ["git diff", "git log -p", "git show", "git diff HEAD"]) {
          const r = bash(c);
          expect(r.action, `${text}\n${c}\n${r.why}`).toBe("allow");
          expect(bash(c, {}, balanced).action, c).toBe("allow");
        }
      } finally {
        globalConfig("");
      }
    }
  });

  it("with a driver set, calls that print no contents run: git status, git log without a patch, git diff --stat", () => {
    // A selected clean filter runs on git status and git diff --stat (issue 20, filter-clean-status.test.ts).
    const history = ["git log", "git log --oneline", "git log -1 --format=%h", "git reflog", "git branch"];
    for (const [text, calls] of [
      [
        `[diff "rot"]\n\ttextconv = ${ROT13}\n`,
        [...history, "git status", "git diff --stat", "git diff --name-only"],
      ],
      [`[diff "rot"]\n\ttextconv = ${ROT13}\n[filter "rot"]\n\tclean = cat\n`, history],
    ] as const) {
      globalConfig(text);
      try {
        for (const c of calls) {
          const r = bash(c);
          expect(r.action, `${c}\n${r.why}`).toBe("allow");
        }
      } finally {
        globalConfig("");
      }
    }
  });

  it("the user's other program settings (a pager, an editor) leave git log -p allowed", () => {
    globalConfig(
      '[core]\n\tpager = less -R\n\teditor = vim\n[diff]\n\tcolorMoved = zebra\n[diff "rot"]\n\tbinary = true\n',
    );
    try {
      expect(bash("git log -p").action).toBe("allow");
    } finally {
      globalConfig("");
    }
  });
});
