// Round 15's second list of over-asks (fix15i): everyday calls that asked under the starter policy
// (`balanced`) only because their program had no grammar or a form was not modelled — expr, shuf, awk -W
// version, perl -v, java -version, unzip -l, gzip -l, zcat, shellcheck, bash -n, getent passwd, npm run,
// node --test --help, git help, git clean -n, sort -o — judged as the companion judges them (the policy,
// then the disk) on the sample repository. Their dangerous twins never are: a secret operand (by name, or a
// link to one), an output onto a protected file, a form that runs or deletes, a variable that loads code, a
// viewer the configuration chooses. An archive is judged as tar -t judges it: a read of the archive file (whose
// bytes the disk looks at: env.zip, which stores the .env, holds a credential).
import { execFileSync } from "node:child_process";
import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleWorkspace } from "../profiles/sample-workspace.ts";
import {
  AUTONOMOUS as autonomous,
  BALANCED as balanced,
  type Judged,
  judgeCommand,
} from "./judge-command.ts";

let ws: string;

beforeAll(() => {
  ws = sampleWorkspace();
  writeFileSync(join(ws, "scripts/env.sh"), "#!/bin/sh\necho hi\n");
  writeFileSync(join(ws, "notes.txt"), "notes\n");
  // Archives of an ordinary file and of the secret; a link with an ordinary name to the secret's archive.
  execFileSync("sh", ["-c", "gzip -k notes.txt && mv notes.txt.gz a.gz && zip -q a.zip notes.txt"], {
    cwd: ws,
  });
  execFileSync("sh", ["-c", "gzip -k .env && zip -q env.zip .env"], { cwd: ws });
  symlinkSync(join(ws, ".env"), join(ws, "plain.gz"));
  symlinkSync(join(ws, ".env"), join(ws, "plain.sh"));
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

const judged = (command: string, env: NodeJS.ProcessEnv = {}, policy = balanced): Judged =>
  judgeCommand(ws, command, { policy, env });

describe("everyday forms are allowed", () => {
  it.each([
    // The calls the blind tester recorded.
    "npm run",
    "expr 1 + 2",
    "getent passwd root",
    "bash -n scripts/env.sh",
    "git clean -n",
    "git help log",
    "awk -W version",
    "seq 10 | shuf -n 1",
    "unzip -l a.zip",
    "gzip -l a.gz",
    "zcat a.gz",
    "perl -v",
    "node --test --help",
    "shellcheck scripts/env.sh",
    // Their everyday neighbours.
    "expr length abc",
    'expr "$HOME" : ".*/"',
    "shuf notes.txt",
    "shuf -e a b c",
    "shuf -i 1-10 -n 3",
    "awk --version",
    "awk -Wversion",
    "perl --version",
    "java -version",
    "java --version",
    "unzip -v a.zip",
    "unzip -t a.zip",
    "unzip -p a.zip notes.txt",
    "gzip -dc a.gz",
    "gunzip -c a.gz",
    "zcat a.gz | head -5",
    "cat a.gz | gzip -d",
    "git ls-files | shuf -n 1",
    "shellcheck -f gcc -S warning scripts/env.sh",
    "sh -n scripts/env.sh",
    "getent group sudo",
    "getent services ssh",
    "npm run-script",
    "node --help",
    "git help",
    "git help -a",
    "git help gitignore",
    "git clean -nd",
    "git clean -ndx",
    "git clean --dry-run -d src",
  ])("%s is allowed", (command) => {
    const { action, reason } = judged(command);
    expect(action, reason).toBe("allow");
  });
});

describe("their dangerous twins are never allowed", () => {
  it.each([
    // A secret as an operand, by name or through a link with an ordinary name.
    "shuf .env",
    "shuf --random-source=.env notes.txt",
    "zcat .env.gz",
    "gzip -dc .env.gz",
    "gunzip -c .env.gz",
    "gzip -l ~/.ssh/id_rsa.gz",
    "zcat plain.gz",
    "unzip -l ~/.ssh/id_rsa",
    "unzip -l env.zip",
    "unzip -p env.zip",
    "unzip -p ~/.ssh/keys.zip",
    "unzip -l .env",
    "shellcheck .env",
    "shellcheck plain.sh",
    "bash -n .env",
    "bash -n plain.sh",
    "bash -n ~/.bashrc",
    // Writes: an output file onto a protected or outside file; sort -o is placed as a write, which
    // balanced asks.
    "shuf -o .git/hooks/pre-commit notes.txt",
    "shuf -o ~/.bashrc notes.txt",
    "sort -o .git/config notes.txt",
    "sort -u README.md -o README.md",
    // Forms that replace, extract, delete or run.
    "gzip notes.txt",
    "gunzip a.gz",
    "gzip -r src",
    "unzip a.zip",
    "unzip -l '*.zip'",
    "git clean -f",
    "git clean -i",
    "git clean",
    "git clean -n --no-dry-run",
    "awk -W exec x.awk",
    "awk -W dump '{print}'",
    "perl",
    "perl -V",
    "perl -ve 1",
    "perl x.pl",
    "java Main",
    "java -jar x.jar",
    "java -version Main",
    "bash -ni scripts/env.sh",
    "bash -n -i scripts/env.sh",
    "bash scripts/env.sh",
    "node -r ./scripts/build.js --help",
    "node --test",
    "npm run test",
    "npm run build",
    "shellcheck -x scripts/env.sh",
    "shellcheck -a scripts/env.sh",
    // Databases that hold hashes or send DNS queries, and a module picked by name.
    "getent shadow root",
    "getent gshadow",
    "getent hosts example.com",
    "getent -s files passwd",
    // git help with a page name that is a file, or a viewer chosen on the command line.
    "git help ../../etc/hostname",
    "git help -w log",
    "git help -m log",
    "git help -a log",
    // Variables that load code, set by the command.
    "JAVA_TOOL_OPTIONS=-javaagent:x.jar java -version",
    "JDK_JAVA_OPTIONS=-javaagent:x.jar java --version",
    "PERL5OPT=-Mx perl -v",
    "SHELLCHECK_OPTS=-a shellcheck scripts/env.sh",
    "GIT_MAN_VIEWER=x git help log",
    "MANPAGER=x git help log",
    // Words only known at run time.
    'expr "$(cat .env)" : x',
    'getent "$DB" root',
    'zcat "$F"',
  ])("%s is never allowed", (command) => {
    const { action, reason } = judged(command);
    expect(action, reason).not.toBe("allow");
  });
});

describe("what the agent's environment makes the program load or run", () => {
  it.each([
    ["java -version", { JAVA_TOOL_OPTIONS: "-javaagent:/tmp/agent.jar" }],
    ["java --version", { _JAVA_OPTIONS: "-agentpath:/tmp/a.so" }],
    ["java -version", { JDK_JAVA_OPTIONS: "-javaagent:agent.jar" }],
    ["git help log", { GIT_MAN_VIEWER: "x" }],
    ["git help log", { MANOPT: "-H" }],
  ] as const)("%s asks with %j", (command, env) => {
    const { action, reason } = judged(command, env);
    expect(action, reason).not.toBe("allow");
  });

  it("without them java -version is allowed", () => {
    expect(judged("java -version", { HOME: "/nonexistent" }).action).toBe("allow");
  });
});

describe("git help asks when any configuration layer names a viewer", () => {
  it.each([
    ["man.viewer", "x"],
    ["man.x.cmd", "touch PWNED"],
    ["help.format", "html"],
    ["help.browser", "x"],
    ["web.browser", "x"],
  ])("the repository's own %s", (key, value) => {
    execFileSync("git", ["config", key, value], { cwd: ws });
    try {
      const { action, reason } = judged("git help log");
      expect(action, reason).not.toBe("allow");
      expect(reason).toContain(key.toLowerCase());
    } finally {
      execFileSync("git", ["config", "--unset", key], { cwd: ws });
    }
    expect(judged("git help log").action).toBe("allow");
  });

  it("the user's global configuration (GIT_CONFIG_GLOBAL)", () => {
    const global = join(ws, "..", `gitconfig-${process.pid}`);
    writeFileSync(global, "[man]\n\tviewer = x\n");
    try {
      const { action, reason } = judged("git help log", { GIT_CONFIG_GLOBAL: global });
      expect(action, reason).not.toBe("allow");
    } finally {
      rmSync(global, { force: true });
    }
  });
});

describe("sort -o and shuf -o are writes of the file they name, not words left unplaced", () => {
  it.each(["sort -u README.md -o README.md", "shuf -o notes.shuffled notes.txt"])(
    "%s asks as a write under balanced and is allowed where workspace writes are",
    (command) => {
      expect(judged(command).reason).toMatch(/^writes files/);
      const { action, reason } = judged(command, {}, autonomous);
      expect(action, reason).toBe("allow");
    },
  );
});
