// Over-asks, round 20 (fix21b): version and status queries the starter profiles asked about — `gcc --version`,
// `docker --version`, `git remote show -n origin`, `node -p "require('./package.json').version"` — judged as
// the companion judges them (the policy, then the disk) on the sample repository. Each program's behaviour was
// proven by strace (grammar/programs/version.ts, git-forms.ts, interpreters.ts); their neighbours that run a
// program, reach a daemon or a remote, or read something else still ask. So do the queries left asking on
// purpose: kubectl's (it runs the kubeconfig's exec plugin), terraform's (its checkpoint goes online), gh's,
// systemctl's and docker's daemon queries.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleWorkspace } from "../profiles/sample-workspace.ts";
import { AUTONOMOUS, BALANCED, judgeCommand } from "./judge-command.ts";

let ws: string;

beforeAll(() => {
  ws = sampleWorkspace();
  // require('./lib.json') of a directory loads lib.json/index.js; a link leads to the workspace's .env.
  mkdirSync(join(ws, "lib.json"));
  writeFileSync(join(ws, "lib.json", "index.js"), "require('child_process').execSync('id');\n");
  symlinkSync(join(ws, ".env"), join(ws, "env.json"));
});
afterAll(() => rmSync(ws, { recursive: true, force: true }));

const PACKAGE_VERSION = `node -p "require('./package.json').version"`;

describe("version queries, git remote show -n and node -p of a JSON field are allowed", () => {
  it.each([
    "gcc --version",
    "g++ --version",
    "docker --version",
    "docker -v",
    "git remote show -n origin",
    "git remote show -n",
    PACKAGE_VERSION,
    `node -p 'require("./package.json").scripts.test'`,
    `node --print="require('./sub/package.json').name"`,
    `cd sub && node -p "require('./package.json').name"`,
  ])("%s is allowed under balanced and autonomous", (command) => {
    for (const policy of [BALANCED, AUTONOMOUS]) {
      const { action, reason } = judgeCommand(ws, command, { policy });
      expect(action, reason).toBe("allow");
    }
  });
});

describe("their neighbours that run a program, reach a daemon or a remote, or read another file", () => {
  it.each([
    // gcc compiles (running cc1, as, collect2) with an operand; -v and -B are not the version query.
    "gcc",
    "gcc -v",
    "gcc --version x.c",
    "gcc --version -B/tmp/x",
    "GCC_EXEC_PREFIX=/tmp/x/ gcc --version",
    "COMPILER_PATH=/tmp/x gcc --version",
    // cc and clang may be clang, which reads configuration files next to itself.
    "cc --version",
    "clang --version",
    // docker's daemon (or an ssh:// context) and its plugins.
    "docker",
    "docker ps",
    "docker images",
    "docker version",
    "docker --version ps",
    "docker -H ssh://x --version",
    "DOCKER_HOST=ssh://x docker --version",
    // git remote show without -n runs ls-remote against each remote (ssh, credential helpers).
    "git remote show origin",
    "git remote show",
    "git -c core.sshCommand=x remote show -n origin",
    "git remote show -n origin > notes.txt; cat ~/.ssh/id_rsa",
    // node -p with anything but require('./X.json').FIELD.
    `node -p "require('./package.json').version()"`,
    `node -p "require('./package.json').version" extra`,
    `node -p "require('../package.json').version"`,
    `node -p "require('./.env.json').x"`,
    `node -p "require('fs').readFileSync('.env', 'utf8')"`,
    `node -p "require('./src').x"`,
    `node -p "require('./package.json')[process.argv[1]]"`,
    `node -e "require('./package.json').version"`,
    `NODE_OPTIONS='--require ./scripts/build.js' ${PACKAGE_VERSION}`,
    `python3 -c "require('./package.json').version"`,
  ])("never allows %s", (command) => {
    for (const policy of [BALANCED, AUTONOMOUS])
      expect(judgeCommand(ws, command, { policy }).action).not.toBe("allow");
  });

  it("a preloaded module is the project's code: a run, which balanced asks about", () => {
    const { action, reason } = judgeCommand(ws, `node -r ./scripts/build.js ${PACKAGE_VERSION.slice(5)}`);
    expect(action).toBe("ask");
    expect(reason).toMatch(/runs the project's code/);
  });

  it("node -p of a JSON name that is a directory asks: require() would run its index.js", () => {
    const { action, reason } = judgeCommand(ws, `node -p "require('./lib.json').x"`);
    expect(action).toBe("ask");
    expect(reason).toMatch(/is a directory/);
  });

  it("node -p of a JSON name that is not there asks: require() would look for X.json.js", () => {
    const { action, reason } = judgeCommand(ws, `node -p "require('./missing.json').x"`);
    expect(action).toBe("ask");
    expect(reason).toMatch(/is not there/);
  });

  it("node -p of a JSON file that is a link to a secret asks", () => {
    expect(judgeCommand(ws, `node -p "require('./env.json').x"`).action).not.toBe("allow");
  });

  it("node -p of package.json asks when the agent's NODE_OPTIONS preloads a file", () => {
    const env = { NODE_OPTIONS: `--require ${ws}/scripts/build.js`, PATH: process.env.PATH };
    expect(judgeCommand(ws, PACKAGE_VERSION, { env }).action).toBe("ask");
  });
});

describe("git remote show -n prints the remotes' URLs, judged as git remote -v's", () => {
  it("asks when a remote URL holds a token", () => {
    const repo = sampleWorkspace();
    try {
      writeFileSync(
        join(repo, ".git", "config"),
        '[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = https://u:ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r.git\n',
      );
      expect(judgeCommand(repo, "git remote -v").action).toBe("ask");
      expect(judgeCommand(repo, "git remote show -n origin").action).toBe("ask");
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});

describe("queries left asking on purpose (docs/policy.md)", () => {
  it.each([
    // kubectl 1.32 `version --client` runs the kubeconfig's exec credential plugin (strace).
    "kubectl version --client",
    // terraform 1.11 `version` looks up checkpoint-api.hashicorp.com (strace: DNS connects).
    "terraform version",
    // gh may run an alias or an extension, and checks for a new release on a terminal.
    "gh --version",
    // systemctl talks to systemd as root and may start a pager.
    "systemctl status cron",
  ])("%s asks", (command) => {
    for (const policy of [BALANCED, AUTONOMOUS])
      expect(judgeCommand(ws, command, { policy }).action).toBe("ask");
  });
});

describe("ls ~ lists HOME's names where the judge knows HOME", () => {
  it("ls ~ is allowed; ls ~/.ssh asks", () => {
    expect(judgeCommand(ws, "ls ~").action).toBe("allow");
    expect(judgeCommand(ws, "ls ~/.ssh").action).toBe("ask");
  });
});
