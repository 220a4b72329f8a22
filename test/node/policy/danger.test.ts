// Risk that means something (issue 21): what is destructive, outbound or privileged is high whatever a grammar
// says; what is not understood is medium and says so; destructive git asks under every starter profile.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PROFILES, starterPolicy } from "../../../src/companion/local-policy/starter.ts";
import { classify, decide } from "../../../src/policy/index.ts";
import { destructiveGit, gitSubcommand } from "../../../src/policy/shell/danger.ts";
import { judgeGit } from "../../../src/policy/shell/git.ts";
import { CWD, compile, user } from "./helpers.ts";

const DESTRUCTIVE = [
  "git branch -D old",
  "git branch -M main",
  "git branch -df old",
  "git branch --delete --force old",
  "git remote add upstream https://example.com/x.git",
  "git remote -v add x https://example.com/x.git",
  "git remote set-url origin https://example.com/y.git",
  "git remote remove origin",
  "git reset --hard HEAD~1",
  "git push --force",
  "git push -f origin main",
  "git push --force-with-lease",
  "git push origin +main",
  "git push origin :old",
  "git clean -f",
  "git clean -fdx",
  "git checkout -- .",
  "git checkout .",
  "git checkout -f main",
  "git restore src/a.ts",
  "git stash drop",
  "git stash clear",
  "git tag -d v1",
  "git update-ref -d refs/heads/x",
  "git reflog expire --expire=now --all",
  "git gc --prune=now",
  "git filter-branch --tree-filter x HEAD",
];
const NOT_DESTRUCTIVE = [
  "git branch",
  "git branch -a",
  "git remote -v",
  "git checkout main",
  "git checkout -b feature origin/feature",
  "git restore --staged src/a.ts",
  "git clean -n",
  "git push",
  "git stash list",
  "git reset --soft HEAD~1",
  "git status",
];

const profiles = PROFILES.map((p) => [p, compile(user(starterPolicy(p)))] as const);
const bash = (command: string) => ({ tool: "bash", input: { command }, cwd: CWD, home: "/home/dev" });

describe("destructive git", () => {
  it.each(DESTRUCTIVE)("%s is destructive, high, and asks under every profile", (command) => {
    expect(destructiveGit(command.split(" "))).not.toBeNull();
    expect(classify(bash(command)).risk).toBe("high");
    for (const [name, policy] of profiles)
      expect(decide(policy, bash(command), { hasUI: true }).action, name).toBe("ask");
  });

  it.each(NOT_DESTRUCTIVE)("%s is not destructive", (command) => {
    expect(destructiveGit(command.split(" "))).toBeNull();
  });

  it("is found past any git global options", () => {
    const globals = fc.array(
      fc.constantFrom(
        ["-C", "sub"],
        ["--no-pager"],
        ["-c", "a.b=c"],
        ["--git-dir", ".git"],
        ["-P"],
        ["--work-tree", "."],
      ),
      { maxLength: 4 },
    );
    fc.assert(
      fc.property(globals, fc.constantFrom(...DESTRUCTIVE), (g, command) => {
        const [git, ...rest] = command.split(" ");
        expect(destructiveGit([git as string, ...g.flat(), ...rest]), command).not.toBeNull();
      }),
    );
  });

  it("a rule must name `destructive` to allow it, whatever else it names", () => {
    const broad = compile(
      user('default_action: ask\nrules:\n  - {name: all, condition: "true", action: allow}\n'),
    );
    for (const command of DESTRUCTIVE)
      expect(decide(broad, bash(command), { hasUI: true }).action, command).not.toBe("allow");
  });
});

describe("risk", () => {
  it.each([
    ["cat package.json", "low"],
    ["grep -rn foo src", "low"],
    ["node --version", "low"],
    ["echo $PATH", "low"],
    ["npm test", "medium"],
    ["cargo test", "medium"],
    ["npx tsc --noEmit", "medium"],
    ["mv src/a.ts src/b.ts", "medium"],
    ["mytool --flag", "medium"],
    ["./run.sh", "medium"],
    ["python3", "medium"],
    ["git -C /tmp/other status", "medium"],
    ["cat /etc/hosts", "medium"],
    ["echo x > /tmp/out.txt", "medium"],
    ["echo x > /etc/out.txt", "high"],
    ["rm -rf dist", "high"],
    ["curl https://example.com", "high"],
    ["npm publish", "high"],
    ["sudo ls", "high"],
    ["git push", "high"],
    ["cat .env", "high"],
    ["LD_PRELOAD=./x.so ls", "high"],
  ])("%s is %s", (command, risk) => {
    expect(classify(bash(command)).risk).toBe(risk);
  });

  it("not understood says so, and which word", () => {
    expect(classify(bash("mytool --flag")).justification).toMatch(/^not understood: `mytool`/);
  });

  it("HIGH never runs under a profile: no profile rule allows a high-risk part", () => {
    for (const command of ["rm -rf dist", "curl https://example.com", "npm publish", "git push", "sudo ls"])
      for (const [name, policy] of profiles)
        expect(decide(policy, bash(command), { hasUI: true }).action, `${name}: ${command}`).toBe("ask");
  });
});

describe("git's global options, one rule for both git judges", () => {
  const args = (argv: string[]) => argv.map((value) => ({ value, raw: value, glob: false, tilde: false }));
  // Includes the words git itself rejects (`--list-cmds` without `=`, `-C=dir`): the two judges must still
  // agree on which word is the subcommand, so danger never looks past a word the git judge takes for it.
  const CASES = [
    ["git", "-C", "repo", "push"],
    ["git", "-c", "core.pager=less", "push"],
    ["git", "--git-dir", ".git", "--work-tree", ".", "push"],
    ["git", "--git-dir=.git", "push"],
    ["git", "--exec-path", "push"],
    ["git", "--exec-path=/tmp", "push"],
    ["git", "--list-cmds", "push"],
    ["git", "-C=repo", "push"],
    ["git", "--no-pager", "--config-env", "core.pager=PAGER", "push"],
  ];

  it("both find the same subcommand", () => {
    for (const argv of CASES)
      expect(gitSubcommand(argv)?.name ?? null, argv.join(" ")).toBe(judgeGit(args(argv)).subcommand);
  });

  it("a word git reads only after `=` never hides the subcommand", () => {
    expect(judgeGit(args(["git", "--list-cmds", "push"])).subcommand).toBe("push");
    expect(gitSubcommand(["git", "--exec-path", "push"])?.name).toBe("push");
  });
});
