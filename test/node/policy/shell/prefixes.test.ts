// Class: assignment prefixes and variables that change what a program loads, runs or reads.
import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/index.ts";
import { DANGEROUS_VARIABLES, dangerousVariable } from "../../../../src/policy/shell/env-vars.ts";
import { compile, user } from "../helpers.ts";
import { cleanBashRuns } from "./bash-proof.ts";
import { judge, READ_ONLY } from "./policies.ts";
import { has, provenCases } from "./proven-case.ts";

afterAll(cleanBashRuns);

const P = "touch PWNED";
const REPO = "git init -q . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m x && ";
const gcc = has("gcc");
const EVIL_SO = `__attribute__((constructor)) static void init(void) { extern int system(const char*); extern int unsetenv(const char*); unsetenv("LD_PRELOAD"); system("touch PWNED"); }`;
const withEvilSo = (command: string) =>
  gcc ? `printf '%s' '${EVIL_SO}' | gcc -shared -fPIC -o evil.so -x c - && ${command}` : command;

provenCases("assignment prefixes that change what runs", [
  {
    name: "LD_PRELOAD",
    command: "LD_PRELOAD=./evil.so ls",
    setup: {},
    proof: (run) => run.stderr.includes("evil.so"),
  },
  {
    name: "LD_PRELOAD with a real library (payload runs)",
    command: withEvilSo("LD_PRELOAD=./evil.so ls"),
    needs: "gcc",
    proof: "PWNED",
  },
  {
    name: "LD_PRELOAD+=",
    command: "LD_PRELOAD+=./evil.so ls",
    proof: (run) => run.stderr.includes("evil.so"),
  },
  {
    name: "GIT_CONFIG_COUNT/KEY/VALUE core.fsmonitor",
    command: `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='${P};false' git status`,
    setup: { files: { "setup.sh": "" } },
    proof: (run) => run.exists("PWNED") || run.stderr.includes("not a git repository"),
  },
  {
    name: "GIT_CONFIG_COUNT in a repository",
    command: `${REPO}GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='${P};false' git status`,
    proof: "PWNED",
  },
  {
    name: "GIT_CONFIG_PARAMETERS",
    command: `${REPO}GIT_CONFIG_PARAMETERS="'core.fsmonitor'='${P};false'" git status`,
    proof: "PWNED",
  },
  {
    name: "XDG_CONFIG_HOME=. git status",
    command: `${REPO}XDG_CONFIG_HOME=. git status`,
    setup: { files: { "git/config": `[core]\n\tfsmonitor = ${P};false\n` } },
    proof: "PWNED",
  },
  {
    name: "GIT_EXTERNAL_DIFF",
    command: `${REPO}echo a > f && git add f && echo b > f && GIT_EXTERNAL_DIFF='${P};:' git diff`,
    proof: "PWNED",
  },
  {
    name: "PAGER (on a terminal)",
    command: `${REPO}PAGER='${P};cat' git log`,
    tty: true,
    needs: "script",
    proof: "PWNED",
  },
  {
    name: "GIT_PAGER (on a terminal)",
    command: `${REPO}GIT_PAGER='${P};cat' git log`,
    tty: true,
    needs: "script",
    proof: "PWNED",
  },
  {
    name: "BASH_ENV",
    command: "BASH_ENV=./x.sh bash -c true",
    setup: { files: { "x.sh": `${P}\n` } },
    proof: "PWNED",
  },
  {
    name: "NODE_OPTIONS",
    command: "NODE_OPTIONS='--require ./x.js' node -e 0",
    setup: { files: { "x.js": "require('fs').writeFileSync('PWNED', '')\n" } },
    needs: "node",
    proof: "PWNED",
  },
  {
    name: "PATH=.:$PATH",
    command: "PATH=.:$PATH ls",
    setup: { files: { ls: `#!/bin/sh\n/usr/bin/${P}\n` } },
    proof: "PWNED",
  },
  {
    name: "PATH= (empty: bash then searches the current directory)",
    command: "PATH= ls",
    setup: { files: { ls: `#!/bin/sh\n/usr/bin/${P}\n` } },
    proof: "PWNED",
  },
  {
    name: "unset PATH",
    command: "unset PATH; ls",
    setup: { files: { ls: `#!/bin/sh\n/usr/bin/${P}\n` } },
    proof: "PWNED",
  },
  {
    name: "printf -v PATH",
    command: "printf -v PATH %s . ; ls",
    setup: { files: { ls: `#!/bin/sh\n/usr/bin/${P}\n` } },
    proof: "PWNED",
  },
  {
    name: "read PATH",
    command: "read PATH <<< . ; ls",
    setup: { files: { ls: `#!/bin/sh\n/usr/bin/${P}\n` } },
    proof: "PWNED",
  },
  {
    name: "for PATH in .",
    command: "for PATH in .; do ls; done",
    setup: { files: { ls: `#!/bin/sh\n/usr/bin/${P}\n` } },
    proof: "PWNED",
  },
  {
    name: "export PATH=.",
    command: "export PATH=.; ls",
    setup: { files: { ls: `#!/bin/sh\n/usr/bin/${P}\n` } },
    proof: "PWNED",
  },
  {
    name: "declare -x PATH",
    command: "declare -x PATH=.; ls",
    setup: { files: { ls: `#!/bin/sh\n/usr/bin/${P}\n` } },
    proof: "PWNED",
  },
  {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    name: ": ${PATH:=.} after unset",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    command: "unset PATH; : ${PATH:=.}; ls",
    setup: { files: { ls: `#!/bin/sh\n/usr/bin/${P}\n` } },
    proof: "PWNED",
  },
  {
    name: "env PATH=. (env looks the command up in the new PATH)",
    command: "env PATH=. ls",
    setup: { files: { ls: `#!/bin/sh\n/usr/bin/${P}\n` } },
    proof: "PWNED",
  },
  {
    name: "RIPGREP_CONFIG_PATH",
    command: "RIPGREP_CONFIG_PATH=./rgrc rg x",
    setup: { stubs: ["rg"] },
    proof: (run) => run.calls.some((c) => c.startsWith("rg x")),
  },
]);

describe("the table of variables", () => {
  it.each([
    ["LD_PRELOAD", null],
    ["LD_LIBRARY_PATH", null],
    ["DYLD_INSERT_LIBRARIES", null],
    ["GIT_CONFIG_COUNT", null],
    ["GIT_CONFIG_PARAMETERS", null],
    ["GIT_EXTERNAL_DIFF", null],
    ["GIT_SSH_COMMAND", null],
    ["XDG_CONFIG_HOME", null],
    ["PAGER", "less"],
    ["GIT_PAGER", "less"],
    ["EDITOR", null],
    ["BASH_ENV", null],
    ["ENV", null],
    ["BASH_FUNC_ls%%", null],
    ["NODE_OPTIONS", null],
    ["PYTHONSTARTUP", null],
    ["PERL5OPT", null],
    ["JAVA_TOOL_OPTIONS", null],
    ["MAVEN_OPTS", null],
    ["PATH", null],
    ["HOME", null],
    ["IFS", null],
    ["CDPATH", null],
    ["LC_ALL", "zh_CN.GB18030"],
    ["TAR_OPTIONS", null],
    ["npm_config_script_shell", null],
  ])("%s is dangerous", (name, value) => {
    expect(dangerousVariable(name, value)).toMatch(new RegExp(name.replace(/[$%]/g, ".")));
  });
  it.each([
    ["NODE_ENV", "test"],
    ["CI", "1"],
    ["FORCE_COLOR", "0"],
    ["TZ", "UTC"],
    ["PAGER", "cat"],
    ["GIT_PAGER", "cat"],
    ["LC_ALL", "C"],
    ["LANG", "en_US.UTF-8"],
    ["PYTHONUNBUFFERED", "1"],
    ["GIT_AUTHOR_NAME", "x"],
    ["RUST_BACKTRACE", "1"],
  ])("%s=%s only tunes output", (name, value) => {
    expect(dangerousVariable(name, value)).toBeNull();
  });
  it("every entry has a reason", () => {
    for (const v of DANGEROUS_VARIABLES) expect(v.why.length, v.pattern).toBeGreaterThan(10);
  });
});

describe("prefixes are part of the command", () => {
  it("a unit carries its prefixes, and env's assignments reach the command it runs", () => {
    const [unit] = analyzeShell("LD_PRELOAD=./x.so FOO=1 ls").units;
    expect(unit).toMatchObject({
      kind: "exec",
      argv: ["ls"],
      prefixes: [
        { name: "LD_PRELOAD", value: "./x.so" },
        { name: "FOO", value: "1" },
      ],
    });
    const inner = analyzeShell("env LD_PRELOAD=./x.so ls").units.filter((u) => u.kind === "exec");
    expect(inner[1]).toMatchObject({ argv: ["ls"], prefixes: [{ name: "LD_PRELOAD" }] });
  });
  it("a harmless prefix does not stop an allowed command", () => {
    expect(judge(READ_ONLY, "NODE_ENV=test ls").action).toBe("allow");
    expect(judge(READ_ONLY, "LC_ALL=C sort README.md").action).toBe("allow");
    expect(judge(READ_ONLY, "GIT_PAGER=cat git log").action).toBe("allow");
  });
  it("a rule allows a dangerous prefix only if it names it", () => {
    const named = compile(
      user(`
default_action: ask
rules:
  - name: node with a bigger heap
    condition: tool == "bash" && program == "node" && prefixes["NODE_OPTIONS"] == "--max-old-space-size=4096"
    action: allow
  - name: any ls
    condition: tool == "bash" && program == "ls"
    action: allow
  - name: reads in the project (the script node runs is one)
    condition: tool == "read" && path.startsWith(cwd + "/")
    action: allow
`),
    );
    expect(judge(named, "NODE_OPTIONS=--max-old-space-size=4096 node build.js").action).toBe("allow");
    expect(judge(named, "NODE_OPTIONS='--require ./x.js' node build.js").action).toBe("ask");
    expect(judge(named, "LD_PRELOAD=./x.so ls").action).toBe("ask");
    expect(judge(compile(user("default_action: allow\n")), "LD_PRELOAD=./x.so ls").action).toBe("ask");
  });
  it("conditions see prefixes and whether each word is static", () => {
    const rules = compile(
      user(`
default_action: deny
rules:
  - name: echo of static words only
    condition: tool == "bash" && program == "echo" && words.all(w, w.static) && size(prefixes) == 0
    action: allow
`),
    );
    expect(judge(rules, "echo hi there").action).toBe("allow");
    expect(judge(rules, "echo $HOSTNAME").action).toBe("deny");
    expect(judge(rules, "FOO=1 echo hi").action).toBe("deny");
  });
});

describe("the bash proofs use real programs", () => {
  it("bash is here", () => {
    expect(spawnSync("bash", ["--version"]).status).toBe(0);
  });
});
