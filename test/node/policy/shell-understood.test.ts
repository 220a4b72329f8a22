// "Allow only what is understood" (issue 20): the shell-side bypasses it lists, each never allowed
// (asked, denied headless) under the strict read-only allowlist and the starter policy, and
// explained in one line naming the word or path; everyday reads stay understood and allowed.
import { describe, expect, it } from "vitest";
import { starterPolicy } from "../../../src/companion/local-policy/starter.ts";
import { analyzeShell } from "../../../src/policy/shell/analysis.ts";
import type { ExecUnit } from "../../../src/policy/shell/units.ts";
import { compile, user } from "./helpers.ts";
import { judge, READ_ONLY } from "./shell/policies.ts";

const STARTER = compile(user(starterPolicy()));

/** A recursive read of `.`: the project directory itself is no file under it, so no read rule covers it. */
const RECURSIVE_DOT = /`\.`: ask|every file below/;

const BYPASSES: readonly [string, RegExp][] = [
  ["grep -d recurse KEY .", RECURSIVE_DOT],
  ["grep --directories=recurse KEY .", RECURSIVE_DOT],
  ["grep --recurs KEY .", RECURSIVE_DOT],
  ["grep -d rec KEY .", RECURSIVE_DOT],
  ["grep --dir=recurse KEY .", RECURSIVE_DOT],
  ["diff --recur -N src .", /every file below/],
  ["diff -r src /tmp/elsewhere", /every file below/],
  ["cd --; cat .bashrc", /bashrc/],
  ["cd .s*; cat id_rsa", /not known/],
  ["cat .[[=e=]]nv", /could match a secret/],
  ["cat .[[.e.]]nv", /could match a secret/],
  ["git log -p -- '.e*'", /could match a secret/],
  ["git log -p ':(icase).ENV'", /could match a secret/],
  ["git show ':(attr:secret)x'", /not understood/],
  ["git log -p ':(zz).env'", /not understood/],
  ["date --f=.env", /is a secret/],
  ["date --fi .env", /is a secret/],
  ["wc --f=list.txt", /not known/],
  ["wc --files0=list.txt", /not known/],
  ["sort --out=x.txt f", /`--out=x.txt`: ask/],
  ["ls --frobnicate", /`--frobnicate` is not understood/],
  ["grep --zz KEY f.txt", /`--zz` is not understood/],
  ["git -c core.fsmonitor=./x status", /`-c` is not understood/],
  ["git branch evil", /`evil` is not understood/],
  ["git stash", /not understood/],
  ["date -s 2020-01-01", /not understood/],
  ["rg --pre ./x KEY", /not understood/],
  ["awk 'BEGIN{system(\"id\")}'", /not understood/],
  ["sed -f script.sed f", /not understood/],
  ["jq -n env", /not understood/],
  ["find . -newer x -frobnicate", /`-frobnicate` is not understood/],
  ["terraform apply", /`terraform` is not understood/],
  // binutils expands an `@FILE` word as a response file and prints its words in errors (red team).
  ["strings -a @.git/config", /`@\.git\/config`.*response file/],
  ["strings @/home/u/.config/rclone/rclone.conf", /response file/],
  ["strings @notes/deploy.txt", /response file/],
  ["strings -n @x f.bin", /response file/],
  // tsc and pytest (argparse's fromfile) expand `@FILE` the same way and report its words as errors.
  ["npx tsc --noEmit @.git/config", /response file/],
  ["pytest -q @.env", /response file/],
  // tree --info reads `.info` comment files in every directory it walks, through symlinks (red team).
  ["tree --info docs", /`--info`.*\.info/],
  ["tree --info", /`--info`.*\.info/],
];

describe("issue 20's shell-side bypasses are never allowed", () => {
  for (const [command, why] of BYPASSES) {
    it(command, () => {
      const r = judge(READ_ONLY, command);
      expect(r.action, r.reasons.join("\n")).not.toBe("allow");
      expect(judge(READ_ONLY, command, false).action).toBe("deny");
      expect(r.reasons.join("\n")).toMatch(why);
      const s = judge(STARTER, command);
      expect(s.action, s.reasons.join("\n")).not.toBe("allow");
    });
  }

  it("explains a word not understood in one line that names it", () => {
    const r = judge(READ_ONLY, "grep --zz KEY f.txt");
    const line = r.reasons.find((x) => x.includes("not understood"));
    expect(line).toBeDefined();
    expect(line).not.toContain("\n");
    expect(line).toContain("`--zz`");
  });
});

const EVERYDAY_ALLOWED = [
  "cat package.json",
  "head -50 README.md",
  "sed -n 1,50p src/x.ts",
  "jq .scripts package.json",
  "git blame f",
  "find src -type f",
  "du -sh",
  "node --version",
  "ls -la",
  "git log --oneline -5",
  "git diff HEAD~1 -- src",
  "git status --short",
  "tail -n 20 log.txt",
  "wc -l src/a.ts",
  "sort -u names.txt",
  "cut -d, -f1 data.csv",
  "stat -c %s f",
  "file README.md",
  "realpath src",
  "basename src/a.ts .ts",
  "date +%s",
  "echo hi",
  "echo *",
  "printf '%s\\n' x",
  "which node",
  "git branch -a",
];
/** Understood, though the strict allowlist does not name them. */
const EVERYDAY_UNDERSTOOD = [
  "git ls-files",
  "git rev-parse --show-toplevel",
  "npm test",
  "npx tsc --noEmit",
  "make",
  "cargo test",
  "pytest -q",
];
const EVERYDAY_RECURSIVE = ["grep -rn foo src", "rg foo", "diff -r a b"];

describe("everyday reads stay understood", () => {
  for (const command of EVERYDAY_ALLOWED) {
    it(`allows ${command}`, () => {
      const r = judge(READ_ONLY, command);
      expect(r.action, r.reasons.join("\n")).toBe("allow");
    });
  }
  for (const command of EVERYDAY_RECURSIVE) {
    it(`understands ${command}, a recursive read a rule must name`, () => {
      const units = analyzeShell(command).units;
      const exec = units.find((u) => u.kind === "exec") as ExecUnit;
      expect(exec.notUnderstood).toBeUndefined();
      expect(units.some((u) => u.kind === "read" && u.recursive)).toBe(true);
      expect(judge(READ_ONLY, command).action).not.toBe("allow");
    });
  }
  for (const command of [...EVERYDAY_ALLOWED, ...EVERYDAY_UNDERSTOOD]) {
    it(`understands ${command}`, () => {
      const execs = analyzeShell(command).units.filter((u) => u.kind === "exec") as ExecUnit[];
      expect(execs.map((u) => u.notUnderstood ?? null)).toEqual(execs.map(() => null));
    });
  }
});

describe("the effects each unit reports", () => {
  const effects = (command: string) => {
    const exec = analyzeShell(command).units.find((u) => u.kind === "exec") as ExecUnit;
    return (exec.effects?.paths ?? []).map(
      (e) => `${e.access}:${e.arg.value}:${e.contents ? "c" : "-"}:${e.follow}`,
    );
  };
  it.each([
    ["grep -R KEY src", ["walk:src:c:all"]],
    ["grep -r KEY src", ["walk:src:c:args"]],
    ["ls -R src", ["walk:src:-:args"]],
    ["ls -L src", ["list:src:-:all"]],
    ["find -L src -name x", ["walk:src:-:all"]],
    ["du -sh", ["walk:.:-:args"]],
    ["tree -l", ["walk:.:-:all"]],
    ["sort -o out.txt in.txt", ["write:out.txt:-:args", "read:in.txt:c:args"]],
    ["diff --no-dereference -r a b", ["walk:a:c:none", "walk:b:c:none"]],
    ["node x.js", ["exec:x.js:-:args"]],
  ])("%s", (command, expected) => {
    expect(effects(command).sort()).toEqual([...expected].sort());
  });

  it("runners report what defines the code they run", () => {
    const exec = analyzeShell("npm test").units.find((u) => u.kind === "exec") as ExecUnit;
    expect(exec.effects?.effect).toBe("run");
    expect(exec.effects?.definedBy).toContain("package.json");
    const version = analyzeShell("npm --version").units.find((u) => u.kind === "exec") as ExecUnit;
    expect(version.effects?.effect).toBe("read");
  });
});
