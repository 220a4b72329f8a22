// Issue 20, over-asks round 7: everyday reads that asked under the starter policy (`balanced`) and are
// now understood — `git reflog`, `git cherry`, `git help -a`, `git notes list`, `git remote` (names),
// `column`, `df`, `rustc --version` — judged as the companion judges them (the policy, then the disk) on
// the sample repository. Attacks first: every form of the same programs that writes, runs code, opens a
// viewer, prints a credential, or reads a secret is never allowed.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { judgeEveryday, profilePolicy } from "../../../../src/companion/profiles/preview.ts";
import { sampleWorkspace } from "../profiles/sample-workspace.ts";

let ws: string;
let tokened: string;
let pinned: string;
let keyed: string;
let noted: string;
let withSub: string;
let gitlinked: string;
let including: string;
const disk = diskCheck({ env: {} });
const balanced = profilePolicy("balanced", "/home/dev");

beforeAll(() => {
  ws = sampleWorkspace();
  writeFileSync(join(ws, ".env"), "API_KEY=do-not-read\n");
  // A repository whose remote URL holds a token (as a CI checkout's does).
  tokened = sampleWorkspace();
  execFileSync("git", ["remote", "add", "origin", "https://u:ghp_TOKEN123@github.com/o/r.git"], {
    cwd: tokened,
  });
  // A repository whose history holds a private key (a test fixture), brought in by a merge.
  keyed = sampleWorkspace();
  const git = (...a: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@e", ...a], { cwd: keyed, stdio: "ignore" });
  git("checkout", "-qb", "fixture");
  writeFileSync(
    join(keyed, "server.pem"),
    "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAK\n-----END RSA PRIVATE KEY-----\n",
  );
  git("add", "server.pem");
  git("commit", "-qm", "fixture");
  git("checkout", "-q", "main");
  git("merge", "-q", "--no-ff", "--no-edit", "fixture");
  // A repository whose notes hold a private key (notes are blobs under refs/notes).
  noted = sampleWorkspace();
  execFileSync(
    "git",
    [
      "-c",
      "user.name=t",
      "-c",
      "user.email=t@e",
      "notes",
      "add",
      "-m",
      "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
      "HEAD",
    ],
    { cwd: noted, stdio: "ignore" },
  );
  // A repository with a checked-out submodule, and one whose index only holds a gitlink (no .gitmodules).
  withSub = sampleWorkspace();
  const inner = sampleWorkspace();
  execFileSync(
    "git",
    [
      "-c",
      "protocol.file.allow=always",
      "-c",
      "user.name=t",
      "-c",
      "user.email=t@e",
      "submodule",
      "add",
      "-q",
      inner,
      "lib",
    ],
    { cwd: withSub, stdio: "ignore" },
  );
  execFileSync("git", ["config", "core.fsmonitor", "touch PWNED"], {
    cwd: join(withSub, "lib"),
    stdio: "ignore",
  });
  gitlinked = sampleWorkspace();
  const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: gitlinked, encoding: "utf8" }).trim();
  execFileSync("git", ["update-index", "--add", "--cacheinfo", `160000,${head},vendored`], {
    cwd: gitlinked,
    stdio: "ignore",
  });
  rmSync(inner, { recursive: true, force: true });
  // A repository whose configuration includes a file that sets a remote URL with a token.
  including = sampleWorkspace();
  writeFileSync(`${including}.inc`, '[remote "origin"]\n\turl = https://u:ghp_INC@github.com/o/r.git\n');
  execFileSync("git", ["config", "include.path", `${including}.inc`], { cwd: including });
  // A repository whose rust-toolchain.toml makes rustup run a program of the workspace's.
  pinned = sampleWorkspace();
  mkdirSync(join(pinned, "tc", "bin"), { recursive: true });
  writeFileSync(join(pinned, "tc", "bin", "rustc"), "#!/bin/sh\ntouch PWNED\n");
  writeFileSync(join(pinned, "rust-toolchain.toml"), `[toolchain]\npath = "${join(pinned, "tc")}"\n`);
});
afterAll(() => {
  for (const d of [ws, tokened, pinned, keyed, noted, withSub, gitlinked, including])
    rmSync(d, { recursive: true, force: true });
  rmSync(`${including}.inc`, { force: true });
});

function action(command: string, cwd = ws): string {
  const [j] = judgeEveryday(balanced, cwd, "/home/dev", disk, [
    { kind: "read", tool: "Bash", input: { command } },
  ]);
  return j?.record.action ?? "none";
}

describe("attacks: the same programs' forms that write, run, open a viewer or print a secret", () => {
  it.each([
    // reflog: expire/delete write, exists is no show; a word known only at run time could be either.
    "git reflog expire --all",
    "git reflog expire --expire=now --all",
    "git reflog delete HEAD@{0}",
    "git reflog exists HEAD",
    'git reflog "$SUB" --all',
    "git reflog --output=out.txt",
    "git reflog show --output=out.txt",
    "git reflog -p --ext-diff",
    // remote: every form with an operand changes the repository or talks to the network.
    "git remote add x https://example.com/r.git",
    "git remote set-url origin https://example.com/r.git",
    "git remote prune origin",
    "git remote update",
    "git remote rename origin x",
    "git remote show origin",
    // submodule: every form but status writes, fetches or runs a command.
    "git submodule update --init",
    "git submodule foreach 'touch PWNED'",
    "git submodule sync",
    "git submodule add ../x lib",
    "git submodule deinit --all",
    "git submodule absorbgitdirs",
    "git submodule summary",
    // notes: every form but listing writes (or prints a note's contents).
    "git notes add -m x",
    "git notes append -m x HEAD",
    "git notes edit",
    "git notes remove HEAD",
    "git notes prune",
    "git notes show",
    "git notes --ref=x list",
    "git notes copy HEAD~1 HEAD",
    // help: a page opens in man, info or a browser the options name (`git help log` runs man on the page
    // unless the configuration names a viewer: overask15i-programs.test.ts).
    "git help -w log",
    "git help --web log",
    "git help -i log",
    "git help -m log",
    "git help --man",
    "git help -a log",
    // cherry: only revisions and -v/--abbrev.
    "git cherry --output=x",
    // column reads its operands: a secret is still a secret.
    "column -t .env",
    "column -c 80 .env",
    "column -t < .env",
    // -d is a flag in util-linux 2.38 (no headings): the word after it is a file it reads.
    "column -d .env",
    "column -t -d .env",
    // du: its lists of files and exclusion files are reads of those files.
    "du -X .env .",
    "du --exclude-from=.env .",
    "du --files0-from=list .",
    "du --files0-from=- .",
    // rustc compiles a file (and runs nothing of ours only with --version).
    "rustc main.rs",
    "rustc src/main.rs -o x",
    "rustc --version --out-dir x",
    "rustc",
    "rustc -",
  ])("never allows %s", (command) => {
    expect(action(command)).not.toBe("allow");
  });

  it.each(["git remote -v", "git remote get-url origin", "git config --get remote.origin.url"])(
    "never allows %s when the configuration includes another file (which may set a URL with a token)",
    (command) => {
      expect(action(command, including)).not.toBe("allow");
    },
  );

  it("never allows git remote -v when the user's global configuration has a URL with a token", () => {
    const global = `${ws}-global.gitconfig`;
    writeFileSync(global, '[remote "mirror"]\n\turl = https://u:ghp_GLOBAL@github.com/o/r.git\n');
    const before = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = global;
    try {
      expect(action("git remote -v")).not.toBe("allow");
      expect(action("git config --get remote.mirror.url")).not.toBe("allow");
    } finally {
      if (before === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = before;
      rmSync(global, { force: true });
    }
    expect(action("git remote -v")).toBe("allow");
  });

  it.each([
    "git remote -v",
    "git remote --verbose",
    "git remote get-url origin",
    "git ls-remote",
    "git config --get remote.origin.url",
  ])("never allows %s when a remote URL holds a token", (command) => {
    expect(action(command, tokened)).not.toBe("allow");
  });

  it.each(["rustc --version", "rustc -vV", "cargo --version", "cargo -V", "cd src && rustc --version"])(
    "never allows %s where a rust-toolchain file picks what rustup runs",
    (command) => {
      expect(action(command, pinned)).not.toBe("allow");
    },
  );
});

describe("notes are blobs: a reflog format that prints them is judged by the history", () => {
  it.each(["git reflog", "git reflog -n 3", "git reflog show main", "git notes list", "git cherry -v"])(
    "%s prints ids and subjects: allowed",
    (command) => {
      expect(action(command, noted)).toBe("allow");
    },
  );
  it.each([
    "git reflog --format=%N",
    "git reflog --pretty=medium --notes",
    "git reflog --format=%B%N",
    "git reflog --show-notes",
  ])("never allows %s (it prints the note holding a key)", (command) => {
    expect(action(command, noted)).not.toBe("allow");
  });
});

describe("a merge's diff needs -p as well (git 2.39)", () => {
  it.each(["git log -m --oneline", "git log --all -m"])("%s prints no line: allowed", (command) => {
    expect(action(command, keyed)).toBe("allow");
  });
  it.each([
    "git log -m -p",
    "git log -mp",
    "git log -c",
    "git log --cc",
    "git reflog -p",
    "git log -m --patch",
  ])("%s prints the key's lines: never allowed", (command) => {
    expect(action(command, keyed)).not.toBe("allow");
  });
});

describe("git blame FILE prints FILE's work-tree lines, whatever else the history holds", () => {
  beforeAll(() => {
    // A tracked file with a key pasted in (not committed), and a tracked file gone from the work tree.
    writeFileSync(
      join(keyed, "src", "util.ts"),
      `export const k = \`${"-----BEGIN RSA PRIVATE KEY-----"}\nMIIB\n-----END RSA PRIVATE KEY-----\`;\n`,
    );
    rmSync(join(keyed, "main.go"));
  });

  it.each([
    "git blame src/index.ts",
    "git blame -L 1,2 src/index.ts",
    "git blame -w -M -- src/index.ts",
    "git annotate src/index.ts",
  ])("%s: allowed though the history holds a key elsewhere", (command) => {
    expect(action(command, keyed)).toBe("allow");
  });

  it.each([
    // The file's own copy holds a key.
    "git blame src/util.ts",
    // A revision, a reverse range or a revisions file: lines of another version, judged by the history.
    "git blame HEAD~1 src/index.ts",
    "git blame HEAD~1 -- src/index.ts",
    "git blame --reverse HEAD~1..HEAD src/index.ts",
    "git blame -S revs.txt src/index.ts",
    // No copy in the work tree: git blames HEAD's.
    "git blame main.go",
    // The secret itself, by name or through --contents.
    "git blame server.pem",
    "git blame --contents server.pem src/index.ts",
  ])("never allows %s", (command) => {
    expect(action(command, keyed)).not.toBe("allow");
  });
});

describe("system description files (the starter profiles' rule)", () => {
  it.each(["cat /etc/os-release", "head -3 /etc/os-release", "cat /proc/cpuinfo", "cat /proc/version"])(
    "%s is allowed",
    (command) => {
      expect(action(command)).toBe("allow");
    },
  );
  it.each([
    "cat /etc/os-release /etc/passwd",
    "cat /etc/*-release",
    "cat /etc/shadow",
    "grep -r x /etc/os-release",
    "cat /etc/../etc/os-release",
    "cat /proc/self/environ",
  ])("never allows %s", (command) => {
    expect(action(command)).not.toBe("allow");
  });
});

describe("the reason names what decided", () => {
  it("the rust-toolchain file, by name", () => {
    const [j] = judgeEveryday(balanced, pinned, "/home/dev", disk, [
      { kind: "read", tool: "Bash", input: { command: "rustc --version" } },
    ]);
    expect(j?.reason).toContain("rust-toolchain.toml");
  });

  it("the reflog form that writes, by its word", () => {
    const [j] = judgeEveryday(balanced, ws, "/home/dev", disk, [
      { kind: "read", tool: "Bash", input: { command: "git reflog expire --all" } },
    ]);
    expect(j?.reason).toContain("`expire` is not understood");
  });
});

describe("everyday reads of the same programs are allowed", () => {
  it.each([
    "git reflog",
    "git reflog show",
    "git reflog -n 5",
    "git reflog -5",
    "git reflog show main",
    "git reflog --oneline -3",
    "git cherry -v",
    "git cherry -v main",
    "git help -a",
    "git help",
    "git help -g",
    "git notes",
    "git notes list",
    "git submodule status",
    "git submodule",
    "git remote",
    "git remote -v",
    "column -t README.md",
    "column -c 80 README.md",
    "df",
    "df -h",
    "df -h .",
    "df --output=source,size,used .",
    "rustc --version",
    "rustc -vV",
    "cargo --version",
  ])("%s", (command) => {
    expect(action(command)).toBe("allow");
  });

  it("a bare `git remote` prints names only, so a token in a URL does not ask", () => {
    expect(action("git remote", tokened)).toBe("allow");
  });
});
