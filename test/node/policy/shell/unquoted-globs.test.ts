// Red team rounds 16/17 (fix17b): an unquoted expansion is split and globbed again by bash, so a value
// holding `*` lists a directory as the glob written out would. `for f in ~/.ssh/*; do echo $f; done` and
// `basename -a $(echo ~/.ssh/\*)` printed the names of ~/.ssh while `ls ~/.ssh` asked. Each attack was
// run in real bash first (it prints the secret directory's names) and written before the fix.
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge, neverAllowed } from "./policies.ts";

afterAll(cleanBashRuns);

const ATTACKS = [
  "for f in ~/.ssh/*; do echo $f; done",
  'for f in "$HOME/.ssh/*"; do echo $f; done',
  "basename -a $(echo ~/.ssh/\\*)",
  "echo $(echo ~/.ssh/\\*)",
  "x=~/.ssh; echo $x/*",
  'x=~/.ssh; echo "$x"/*',
  'x="$HOME/.ssh/*"; echo $x',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
  'a=(~/.ssh/*); echo "${a[@]}"',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
  "a=($(echo ~/.ssh/\\*)); echo ${a[0]}",
  ': "$HOME/.ssh/*"; echo $_',
  'set -- "$HOME/.ssh/*"; echo $1',
  "IFS=; for f in ~/.ssh/*; do echo $f; done",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
  'readonly a=(~/.ssh/*); echo "${a[@]}"',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
  'export a=(~/.ssh/*); echo "${a[@]}"',
  // A loop's header is split and globbed too; select prints its words as a menu (on standard error).
  'for f in $(echo ~/.ssh/\\*); do echo "$f"; done',
  'x="$HOME/.ssh/*"; for f in $x; do echo "$f"; done',
  "select f in ~/.ssh/*; do break; done </dev/null 2>&1",
];

describe("an unquoted expansion whose value is a glob", () => {
  it.each(ATTACKS)("real bash prints the names in ~/.ssh: %s", (command) => {
    const r = runInBash(command, { files: { "~/.ssh/id_ed25519": "k\n" } });
    expect(r.stdout).toContain("id_ed25519");
  });

  it.each(ATTACKS)("is never allowed: %s", (command) => neverAllowed(command));

  it("a quoted tilde in the value is globbed again relative to the working directory", () => {
    const command = "x='~/.ssh/*'; echo $x";
    expect(runInBash(command, { files: { "~/.ssh/id_ed25519": "k\n", "~/.ssh/x": "" } }).stdout).toBe(
      "~/.ssh/*\n",
    );
    expect(judge(BALANCED, command).reasons.join("\n")).toContain("echo ~/.ssh/*");
  });

  it("asks for a value only known at run time, unquoted", () => {
    for (const command of [
      "for f in $(cat list.txt); do echo $f; done",
      "echo $(cat list.txt)",
      "x=$(printf '\\52'); echo ~/.ssh/$x",
      "read -r x < list.txt; echo $x",
      "echo $(git log)",
      // A match is split at blanks into other names (`src/x .env`), which cat would read.
      "for f in src/*.ts; do wc -l $f; done",
    ]) {
      const r = judge(BALANCED, command);
      expect(r.action, `${command}\n${r.reasons.join("\n")}`).not.toBe("allow");
    }
  });
});

describe("everyday expansions stay allowed", () => {
  it.each([
    "for f in src/*.ts; do echo $f; done",
    "for f in a b; do echo $f; done",
    "for i in $(seq 1 3); do echo $i; done",
    "for f in $(git ls-files); do echo $f; done",
    "select f in a b; do break; done </dev/null",
    'for f in README.md; do echo "$f"; done',
    "x=README.md; echo $x",
    'x="$HOME/.ssh/*"; echo "$x"',
    "basename $(pwd)",
    "echo $(date)",
    'echo "$(cat README.md)"',
    "echo $(git rev-parse --short HEAD)",
    "echo $(git branch --show-current)",
    "echo $PATH",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    "echo $((1 + 2)) ${#PATH} $#",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    "a=(src/*.ts); echo ${#a[@]}",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    'a=(x y); echo "${a[0]}"',
  ])("%s", (command) => {
    const r = judge(BALANCED, command);
    expect(r.action, `${command}\n${r.reasons.join("\n")}`).toBe("allow");
  });
});
