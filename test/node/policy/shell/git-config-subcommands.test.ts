// Red team, round 14 (r14-05, r14-06): git 2.46 made `list`, `get`, `set`, `unset`, `rename-section`,
// `remove-section` and `edit` subcommands of `git config` (git-config(1), builtin/config.c), and the grammar
// read `git config list` and `git config edit` as the old one-word key lookup: the whole configuration
// printed, an editor opened on .git/config, both allowed. Each subcommand form is now judged as the old
// form of the same request (`list` as `--list`, `get --all` as `--get-all`, `edit` as `--edit`, …), so the
// two get the same decision; an option the subcommand does not take asks.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/shell-analysis.ts";
import { AUTONOMOUS, BALANCED, judge, READ_ONLY } from "./policies.ts";

const POLICIES = [
  ["read-only", READ_ONLY],
  ["balanced", BALANCED],
  ["autonomous", AUTONOMOUS],
] as const;

/** The action of every policy, one line each, to compare two commands. */
function decisions(command: string): string[] {
  return POLICIES.map(([name, p]) => `${name}: ${judge(p, command).action}`);
}

function notAllowed(command: string): string {
  const why: string[] = [];
  for (const [name, p] of POLICIES) {
    const r = judge(p, command);
    expect(r.action, `${name}: ${command}\n${r.reasons.join("\n")}`).not.toBe("allow");
    expect(judge(p, command, false).action, `${name} headless: ${command}`).toBe("deny");
    why.push(...r.reasons);
  }
  return why.join("\n");
}

const readsConfiguration = (command: string) =>
  analyzeShell(command).units.some((u) => u.kind === "read" && u.path === ".git/config");

describe("git config's subcommands: the attacks (written first)", () => {
  it.each([
    ["git config list", "git config --list"],
    ["git config list --show-origin", "git config --list --show-origin"],
    ["git config list --show-scope", "git config --list --show-scope"],
    ["git config list --includes", "git config --list --includes"],
    ["git config list --global", "git config --list --global"],
    ["git config list --file .git/config", "git config --list --file .git/config"],
    ["git config list -z --name-only", "git config --list -z --name-only"],
    ["git config list --show-o", "git config --list --show-origin"],
  ])("r14-05: %s prints the whole configuration, as %s does", (command, legacy) => {
    notAllowed(command);
    expect(readsConfiguration(command)).toBe(true);
    expect(decisions(command)).toEqual(decisions(legacy));
  });

  it.each([
    ["git config get --all --show-origin user.name", "git config --get-all --show-origin user.name"],
    ["git config get --regexp 'user.*'", "git config --get-regexp 'user.*'"],
    ["git config get --url=https://github.com http", "git config --get-urlmatch http https://github.com"],
    [
      "git config get http.https://github.com/.extraheader",
      "git config --get http.https://github.com/.extraheader",
    ],
    ["git config get credential.helper", "git config --get credential.helper"],
  ])("%s prints values that may be tokens, as %s does", (command, legacy) => {
    notAllowed(command);
    expect(readsConfiguration(command)).toBe(true);
    expect(decisions(command)).toEqual(decisions(legacy));
  });

  it.each([
    "git config edit",
    "git config edit --global",
    "git config edit --file x.cfg",
    "git config edit --worktree",
  ])("r14-06: %s opens an editor on git's configuration", (command) => {
    expect(notAllowed(command)).toMatch(/editor/);
  });

  it.each([
    "git config set core.fsmonitor ./x",
    "git config set --global alias.st '!sh -c id'",
    "git config set --all core.pager less",
    "git config set --append include.path ../x",
    "git config set --value=x --fixed-value core.editor vim",
    "git config set --comment hi core.hooksPath .h",
    "git config unset core.pager",
    "git config unset --all --global alias.st",
    "git config rename-section alias foo",
    "git config remove-section --local core",
  ])("%s writes git's configuration, which decides what git runs", (command) => {
    expect(notAllowed(command)).toMatch(/configuration/);
  });

  it.each([
    "git config list --all",
    "git config list extra",
    "git config get --bogus user.name",
    "git config get --default",
    "git config edit --name-only",
    'git config get "$K"',
    'git config list "$O"',
  ])("%s: an option or word the subcommand does not take asks", (command) => {
    notAllowed(command);
  });
});

describe("everyday reads stay as allowed as their old form", () => {
  it.each([
    ["git config get user.name", "git config user.name"],
    ["git config get --global user.email", "git config --global user.email"],
    ["git config get --local --type=bool core.bare", "git config --local --type=bool core.bare"],
    ["git config get --default=main init.defaultBranch", "git config --default=main init.defaultBranch"],
    ["git config get --all user.name", "git config --get-all user.name"],
    ["git config get --value=^D user.name", "git config --get user.name ^D"],
    ["git config get --show-names --null user.name", "git config --show-names --null user.name"],
  ])("%s is judged as %s", (command, legacy) => {
    expect(decisions(command)).toEqual(decisions(legacy));
    expect(judge(BALANCED, command).action).toBe("allow");
    expect(readsConfiguration(command)).toBe(false);
  });

  it("a key named like a subcommand in the old form is still the old form (git reads `--global list` as a key)", () => {
    expect(decisions("git config --global list")).toEqual(decisions("git config --global lst"));
  });
});

describe("property: the subcommand form and the old form of the same request get the same decision", () => {
  // builtin/config.c (2.46+): the options each subcommand takes, and the old spelling of the same request.
  const LOCATION = ["", "--global", "--system", "--local", "--worktree", "-f .git/config", "--file=x.cfg"];
  const DISPLAY = ["-z", "--null", "--name-only", "--show-origin", "--show-scope", "--type=int", "--bool"];
  const OTHER = ["--includes", "--no-includes"];
  const KEYS = ["user.name", "core.editor", "remote.origin.url", "http.extraheader", "credential.helper"];
  const opts = fc.subarray([...DISPLAY, ...OTHER], { maxLength: 3 });

  it("list", () => {
    fc.assert(
      fc.property(fc.constantFrom(...LOCATION), opts, (where, more) => {
        const o = [where, ...more].filter((x) => x !== "").join(" ");
        expect(decisions(`git config list ${o}`)).toEqual(decisions(`git config --list ${o}`));
      }),
      { numRuns: 60 },
    );
  });

  it("get", () => {
    const modes = [
      ["", "--get"],
      ["--all", "--get-all"],
      ["--regexp", "--get-regexp"],
    ] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...LOCATION),
        opts,
        fc.constantFrom(...modes),
        fc.constantFrom(...KEYS),
        (where, more, [mode, old], key) => {
          const o = [where, ...more].filter((x) => x !== "").join(" ");
          const now = `git config get ${[mode, o].filter((x) => x !== "").join(" ")} ${key}`;
          expect(decisions(now), now).toEqual(decisions(`git config ${old} ${o} ${key}`));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("the writes", () => {
    const forms = [
      ["set", "", "k.v x"],
      ["set --all", "--replace-all", "k.v x"],
      ["set --append", "--add", "k.v x"],
      ["unset", "--unset", "k.v"],
      ["unset --all", "--unset-all", "k.v"],
      ["rename-section", "--rename-section", "a b"],
      ["remove-section", "--remove-section", "a"],
      ["edit", "--edit", ""],
    ] as const;
    // Few enough to try every one.
    for (const where of LOCATION)
      for (const [now, old, args] of forms) {
        const a = `git config ${now} ${where} ${args}`;
        const b = `git config ${old} ${where} ${args}`;
        expect(decisions(a), a).toEqual(decisions(b));
      }
  });
});
