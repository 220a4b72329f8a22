// What a git unit prints of commit and tag messages and of the reflogs (gitMessages), decided by its
// format: the companion scans only what may be printed (red team, round 8: `git log -1` printed a token
// from a commit message). Each row was checked against git 2.39's output.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gitMessages } from "../../../src/policy/git-messages.ts";
import { analyzeShell } from "../../../src/policy/shell/analysis.ts";
import type { ExecUnit } from "../../../src/policy/shell/units.ts";

function messages(command: string) {
  const unit = analyzeShell(command).units.find((u) => u.kind === "exec") as ExecUnit;
  const sub = unit.words.map((w) => w.value).find((v, k) => k > 0 && v !== null && !v.startsWith("-"));
  return gitMessages(unit, sub ?? null);
}

const COMMITS = { commits: true, tags: false, reflogs: false };
const OBJECTS = { commits: true, tags: true, reflogs: false };
const REFLOGS = { commits: false, tags: false, reflogs: true };
const BOTH = { commits: true, tags: false, reflogs: true };
const ALL = { commits: true, tags: true, reflogs: true };
/** A log with nothing choosing its commits prints HEAD's walk only (issue 20: the companion reads that walk). */
const WALK = { ...COMMITS, head: "all" };

describe("what a git unit prints of messages", () => {
  it.each([
    ["git log -1", { ...COMMITS, head: 1 }],
    ["git log -n 3 --format=%s", { ...COMMITS, head: 3 }],
    ["git log --max-count=2 --stat --date=short", { ...COMMITS, head: 2 }],
    ["git log -3 -- README.md", COMMITS],
    ["git log -3 main", COMMITS],
    ["git log -3 --graph", COMMITS],
    ["git log -2000", COMMITS],
    ["git show -s v1", OBJECTS],
    ["git log", WALK],
    ["git log --oneline --stat -p", WALK],
    ["git log main", COMMITS],
    ["git log --all --oneline", COMMITS],
    ["git log --branches", COMMITS],
    ["git log -- README.md", COMMITS],
    ["git log --oneline HEAD~3", COMMITS],
    ["git log --stdin", COMMITS],
    ["git whatchanged", COMMITS],
    ["git log --oneline -5", { ...COMMITS, head: 5 }],
    ["git log --format=%B", WALK],
    ["git log --pretty=format:%an", WALK],
    ["git log --format='%h %ae'", WALK],
    ["git log --format '%h %(trailers)'", WALK],
    ["git log --format=%h --oneline", WALK],
    ["git log --pretty", WALK],
    ["git log --pretty=reference", WALK],
    ["git log --format=%h --grep=fix", COMMITS],
    ["git log --format=%h --author=ghp_A", COMMITS],
    ["git log --format=%h --gr=fix", COMMITS],
    ["git show -s", { ...COMMITS, head: 1 }],
    ["git show --format=%h v1", OBJECTS],
    ["git show --stat HEAD", OBJECTS],
    ["git whatchanged -1", COMMITS],
    ["git shortlog -s", COMMITS],
    ["git rev-list --format=%s HEAD", COMMITS],
    ["git rev-list --header HEAD", COMMITS],
    ["git rev-list --oneline HEAD", COMMITS],
    ["git diff-tree -s -v HEAD", COMMITS],
    ["git diff-tree -s --pretty HEAD", COMMITS],
    ["git cat-file -p HEAD", OBJECTS],
    ["git cat-file commit HEAD", OBJECTS],
    ["git cat-file --batch-check --batch", OBJECTS],
    ["git cat-file --batch-check='%(objectname) %(rest)'", OBJECTS],
    ["git for-each-ref --format='%(contents)'", OBJECTS],
    ["git for-each-ref --format='%(refname) %(*subject)'", OBJECTS],
    ["git for-each-ref --format='%(taggername)'", OBJECTS],
    ["git for-each-ref --sort=subject", OBJECTS],
    ["git branch -v", OBJECTS],
    ["git branch -avv", OBJECTS],
    ["git tag -n", OBJECTS],
    ["git tag -l -n3", OBJECTS],
    ["git blame README.md", COMMITS],
    ["git cherry -v", COMMITS],
    ["git rev-parse ':/fix'", COMMITS],
    ["git rev-parse 'HEAD^{/fix}'", COMMITS],
    ["git describe 'HEAD^{/fix}'", COMMITS],
    ["git reflog", REFLOGS],
    ["git reflog show main", REFLOGS],
    ["git log -g --oneline", REFLOGS],
    ["git log --walk-reflogs --format='%h %gs'", REFLOGS],
    ["git log -g --format='%gd %gn'", REFLOGS],
    ["git stash list", REFLOGS],
    ["git log -g", BOTH],
    ["git log -g --pretty=short", BOTH],
    ["git stash list --format='%gs %s'", BOTH],
    ["git reflog --format=%B", COMMITS],
  ])("%s prints %j", (command, expected) => {
    expect(messages(command)).toEqual(expected);
  });

  it.each([
    "git log --format=%h",
    "git log --form=%h",
    "git log --format='%H %ad %d %D%n'",
    "git log --pretty=tformat:%h%x09%as",
    "git log --format='%C(yellow)%h%Creset %<(10)%ar'",
    "git log -g --format=%h",
    "git log -g --format='%h %gd'",
    "git reflog --format=%h",
    "git stash list --format=%gd",
    "git rev-list HEAD",
    "git rev-list --count HEAD",
    "git diff-tree --name-only -r HEAD",
    "git for-each-ref",
    "git for-each-ref --format='%(refname:short) %(objectname) %(committerdate)'",
    "git for-each-ref --sort=-committerdate",
    "git branch",
    "git branch -a",
    "git tag",
    "git tag -l",
    "git cat-file -t HEAD",
    "git cat-file -s HEAD",
    "git cat-file --batch-check",
    "git cat-file --batch-all-objects --batch-check='%(objectname) %(objecttype)'",
    "git status",
    "git diff",
    "git ls-files",
    "git rev-parse HEAD",
    "git describe --tags",
    "git cherry",
    "git stash show",
    "git grep -n ':/x'",
    "git ls-files -- ':/src'",
  ])("%s prints no message", (command) => {
    expect(messages(command)).toBeNull();
  });

  it("a word only known at run time may print anything; an empty format is the default one", () => {
    expect(messages('git log "$FMT"')).toEqual(ALL);
    expect(messages("git log --format=")).toEqual(WALK);
  });

  it("property: a format prints commit fields iff it holds one of their placeholders", () => {
    const safe = fc.constantFrom(
      "%h",
      "%H",
      "%t",
      "%p",
      "%ad",
      "%cr",
      "%as",
      "%d",
      "%n",
      "%x09",
      "%%",
      "-",
      " ",
      "x",
    );
    const message = fc.constantFrom(
      "%s",
      "%b",
      "%B",
      "%an",
      "%ae",
      "%cn",
      "%cE",
      "%aN",
      "%f",
      "%(trailers)",
      "%e",
    );
    fc.assert(
      fc.property(
        fc.array(safe, { maxLength: 6 }),
        fc.option(message, { nil: undefined }),
        (parts, planted) => {
          const f = ["%h", ...parts, ...(planted !== undefined ? [planted] : [])].join("");
          const got = messages(`git log --format='${f}'`);
          expect(got, f).toEqual(planted !== undefined ? WALK : null);
        },
      ),
      { numRuns: 200 },
    );
  });
});
