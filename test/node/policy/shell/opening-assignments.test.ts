// `x=README.md; cat "$x"` (assigned-words.ts): a plain assignment a script opens with is known as a whole
// word later, as a loop variable is (over-asks, round 11). Each way the name could hold something else by
// then was written first as an attack; the allowed forms are run in real bash under strace, which shows
// them opening only the files the judge placed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/shell/analysis.ts";
import type { ExecUnit } from "../../../../src/policy/shell/units.ts";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { check, straceAvailable } from "./effects-oracle.ts";
import { BALANCED, EVERY_STRICT, judge, neverAllowed } from "./policies.ts";

afterAll(cleanBashRuns);
const everyPolicy = EVERY_STRICT;

const texts = (command: string) =>
  analyzeShell(command)
    .units.filter((u): u is ExecUnit => u.kind === "exec")
    .map((u) => u.text);

const EVERYDAY = [
  'x=README.md; cat "$x"',
  "x=README.md; cat $x",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
  'f=src/a.py\nwc -l "${f}"\nhead -1 "$f"',
  'a=README.md b=src/a.py; wc -l "$a" "$b"',
  'dir=src; ls "$dir"',
  // The name inside its own quoted value is no other mention of it (round 17).
  "x='x[y]'; cat \"$x\"",
  // `export NAME=VALUE` assigns as the plain form does (round 21 over-ask, fix21f).
  "export x=README.md; cat $x",
  "export FOO=bar; echo $FOO",
];

describe("an opening assignment's name as a word: the attacks (written first)", () => {
  it("judges the value in the word's place: a secret or a path outside stays what it is", () => {
    neverAllowed('x=.env; cat "$x"');
    neverAllowed('x=/etc/shadow; cat "$x"');
    neverAllowed('x=README.md; y=.env; cat "$x" "$y"');
    expect(judge(BALANCED, 'x=.env; cat "$x"').action).toBe("deny");
    expect(judge(BALANCED, 'export x=.env; cat "$x"').action).toBe("deny");
  });

  it("never binds a name anything else may set (a second assignment, read, printf -v, declare, a function …)", () => {
    for (const command of [
      'x=README.md; x=.env; cat "$x"',
      'x=README.md; read x < list.txt; cat "$x"',
      'x=README.md; printf -v x %s .env; cat "$x"',
      // Glued option values (merge of round 12's builtin options): the name's only bare mention is its assignment.
      'x=README.md; printf -vx %s .env; cat "$x"',
      'x=README.md; read -rx < list.txt; cat "$x"',
      'x=README.md; mapfile -tx < list.txt; cat "$x"',
      'x=README.md; wait -n -px; cat "$x"',
      'x=README.md; y=x; printf -v"$y" %s .env; cat "$x"',
      'x=README.md; declare x=.env; cat "$x"',
      'x=README.md; export x=.env; cat "$x"',
      'x=README.md; unset x; cat "$x"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
      'x=README.md; : "${x:=.env}"; cat "$x"',
      'x=README.md; let x=1; cat "$x"',
      'x=README.md; mapfile -t x < list.txt; cat "$x"',
      'x=README.md; f() { x=.env; }; f; cat "$x"',
      "x=README.md; trap 'x=.env' DEBUG; cat \"$x\"",
      'x=README.md; for x in .env; do :; done; cat "$x"',
      'x=README.md; declare -n r=x; r=.env; cat "$x"',
      'x=README.md; source ./vars.sh; cat "$x"',
      'x=README.md; . ./vars.sh; cat "$x"',
      'x=README.md; eval "$CMD"; cat "$x"',
      "x=README.md; eval 'x=.env'; cat \"$x\"",
      "eval 'x=README.md'; cat \"$x\"",
      "eval 'f=README.md'; for f in .env; do cat \"$f\"; done",
      'x=README.md; printf -v "$N" %s .env; cat "$x"',
      // Its name inside its value is cut once, from its own statement: any other mention still counts.
      "x='x[y]'; x=.env; cat \"$x\"",
      "x='x[y]'; read x < list.txt; cat \"$x\"",
      'export x=README.md; x=.env; cat "$x"',
      'export x=README.md; read x < list.txt; cat "$x"',
      // A failed `export` (a readonly name) does not end bash: the old value stays.
      'readonly x=.env; export x=README.md; cat "$x"',
      "a=\"x='x[y]'\" x='x[y]'; read x; cat \"$x\"",
    ])
      neverAllowed(command);
  });

  it("never binds an assignment that may not have run, or ran in another shell", () => {
    for (const command of [
      // `x=… cat "$x"`: the word expands before the prefix is set (the environment's x).
      'x=README.md cat "$x"',
      'cat "$x"; x=README.md',
      'x=README.md | cat "$x"',
      'x=README.md & cat "$x"',
      '(x=README.md); cat "$x"',
      '{ x=README.md; } | cat; cat "$x"',
      'if false; then x=README.md; fi; cat "$x"',
      'false && x=README.md; cat "$x"',
      'true || x=README.md; cat "$x"',
      'echo hi; x=README.md; cat "$x"',
      "x=README.md; bash -c 'cat \"$x\"'",
      // A child shell sees the name only if the environment exported it (else "" or, unquoted, no word).
      "for f in README.md; do bash -c 'cat \"$f\"'; done",
      "x=README.md; sh -c 'cat $x'",
      'export x=README.md && cat "$x"',
      'export -n x=README.md; cat "$x"',
    ])
      neverAllowed(command);
  });

  it("never binds a value bash changes (tilde, glob, blank, expansion, append, subscript) or bash's own names", () => {
    for (const command of [
      'x=~/.ssh/id_rsa; cat "$x"',
      "x=a:~/.ssh/id_rsa; cat $x",
      "x=*; cat $x",
      "export x=*; cat $x",
      "export x=s*; echo $x",
      'export x=~/.ssh/id_rsa; cat "$x"',
      'export x=$(echo .env); cat "$x"',
      'export x+=README.md; cat "$x"',
      // The export itself is judged: a variable a program reads as its configuration still asks.
      "export PAGER=x; echo $PAGER",
      "export GIT_EXTERNAL_DIFF=x; git diff",
      'x=$HOME/.ssh/id_rsa; cat "$x"',
      'x=$(echo .env); cat "$x"',
      'x+=README.md; cat "$x"',
      'x[0]=README.md; cat "$x"',
      "x='README.md .env'; cat $x",
      "x=README.md; IFS=.; cat $x",
      '_=README.md; cat "$_"',
      'RANDOM=1; cat "$RANDOM"',
      'PWD=README.md; cat "$PWD"',
      'OPTARG=README.md; cat "$OPTARG"',
    ])
      neverAllowed(command);
  });

  it("bash agrees: the environment's value is what the unbound forms use", () => {
    const files = { "README.md": "readme\n", ".env": "SECRET=1\n" };
    const env = { x: ".env" };
    expect(runInBash('x=README.md cat "$x"', { files, env }).stdout).toBe("SECRET=1\n");
    expect(runInBash('x=README.md | cat "$x"', { files, env }).stdout).toBe("SECRET=1\n");
    expect(runInBash('x+=README.md; cat "$x" 2>&1', { files, env }).stdout).toMatch(/\.envREADME\.md/);
    expect(runInBash('x=README.md; cat "$x"', { files, env }).stdout).toBe("readme\n");
    // A readonly name's assignment fails, and the non-interactive shell stops before the next statement.
    expect(runInBash('readonly x=.env; x=README.md; cat "$x"', { files }).stdout).toBe("");
    expect(runInBash('readonly x=.env; export x=README.md; cat "$x"', { files }).stdout).toBe("SECRET=1\n");
  });
});

describe("an opening assignment's name as a word", () => {
  it("is judged as the value written in its place", () => {
    expect(texts('x=README.md; cat "$x"')).toEqual(["cat README.md"]);
    expect(texts('f=src/a.py\nwc -l "$f"\nhead -1 "$f"')).toEqual(["wc -l src/a.py", "head -1 src/a.py"]);
    expect(texts('x=-n; cat "$x" README.md')).toEqual(["cat -n README.md"]);
    expect(texts("x='x[y]'; cat \"$x\"")).toEqual(["cat x[y]"]);
  });

  it("allows the everyday forms under every strict profile", () => {
    for (const command of EVERYDAY)
      for (const [name, policy] of everyPolicy) {
        const r = judge(policy, command);
        expect(r.action, `${name}: ${command}\n${r.reasons.join("\n")}`).toBe("allow");
      }
  });
});

describe.skipIf(!straceAvailable())("the allowed forms in real bash (strace)", () => {
  it("open only the files the judge placed", () => {
    const sandbox = mkdtempSync(join(tmpdir(), "airlock-assigned-"));
    try {
      mkdirSync(join(sandbox, "src"));
      writeFileSync(join(sandbox, "README.md"), "readme\n");
      writeFileSync(join(sandbox, "src", "a.py"), "print(1)\n");
      writeFileSync(join(sandbox, ".env"), "SECRET=1\n");
      writeFileSync(join(sandbox, "x[y]"), "bracket\n");
      for (const command of EVERYDAY) {
        const r = check(command, sandbox);
        expect(r.unreported, command).toEqual([]);
        expect(r.unjudgedExecs, command).toEqual([]);
        expect(r.understood, command).toBe(true);
      }
      // Not vacuous: what bash reads through the environment's x is not what the judge placed.
      expect(check("x=.env; cat $x", sandbox, "x=.env; cat README.md").unreported).toEqual(["read .env"]);
    } finally {
      rmSync(sandbox, { recursive: true, force: true });
    }
  });
});

describe("an opening `NAME=$(CMD)` whose CMD prints no glob character (round 21 over-ask, fix21f)", () => {
  it("is the run-time word `$(CMD)` in its place: allowed where `$(CMD)` is", () => {
    expect(texts("x=$(git rev-parse --short HEAD); echo $x")).toContain("echo $(git rev-parse --short HEAD)");
    for (const command of [
      "x=$(git rev-parse --short HEAD); echo $x",
      "export x=$(git branch --show-current); echo $x",
    ]) {
      const r = judge(BALANCED, command);
      expect(r.action, `${command}\n${r.reasons.join("\n")}`).toBe("allow");
    }
  });

  it("never for output that may hold a glob character, names the judge reads, a second setter or a word that may be an option", () => {
    for (const command of [
      'x=$(echo "*"); echo $x',
      "x=$(cat list.txt); echo $x",
      'x=$(find . -name "*.md"); echo $x',
      "x=$(git ls-files); echo $x",
      'x=$(git rev-parse --short HEAD); x=$(echo "*"); echo $x',
      "x=$(git rev-parse --short HEAD); read x < list.txt; echo $x",
      "x=$(git rev-parse --short HEAD) && echo $x",
      "echo hi; x=$(git rev-parse --short HEAD); echo $x",
      "x=$(git rev-parse --short HEAD); cat $x",
    ])
      neverAllowed(command);
  });

  it("bash agrees: an assignment's `$(…)` is globbed when used unquoted", () => {
    const files = { "README.md": "readme\n", ".env": "SECRET=1\n" };
    expect(runInBash("x=$(printf '%s' 'R*'); echo $x", { files }).stdout).toBe("README.md\n");
  });
});
