// `for NAME in WORDS; do BODY; done` (loop-vars.ts): in BODY, "$NAME" is each of WORDS in turn, so
// a loop over a project glob or a literal list with a read-only body is understood as the same
// commands written out; anything that could give NAME another value keeps it unknown (red team,
// round 8). Each attack was written first.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/shell/analysis.ts";
import type { ExecUnit } from "../../../../src/policy/shell/units.ts";
import { actionRank } from "../../../../src/policy/types.ts";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, EVERY_STRICT, judge, neverAllowed, READ_ONLY } from "./policies.ts";

const everyPolicy = EVERY_STRICT;

function execs(command: string): ExecUnit[] {
  return analyzeShell(command).units.filter((u): u is ExecUnit => u.kind === "exec");
}

describe("a loop variable bound to known words", () => {
  it("allows a read-only body over a project glob or a literal list (the red team's everyday loop)", () => {
    for (const command of [
      'for f in src/*.js; do wc -l "$f"; done',
      'for f in src/*.ts; do head -n 5 "$f"; done',
      "for f in README.md package.json; do wc -l $f; done",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
      'for f in a.txt b.txt; do echo "== $f"; cat "${f}"; done',
      'for d in src docs; do ls "$d"; done',
    ]) {
      const r = judge(BALANCED, command);
      expect(r.action, `${command}\n${r.reasons.join("\n")}`).toBe("allow");
    }
  });

  it("judges the body once per word, with the word in the variable's place", () => {
    const units = execs('for f in README.md src/*.js; do wc -l "$f"; done');
    expect(units.map((u) => u.text)).toEqual(["wc -l README.md", "wc -l src/*.js"]);
    const glob = units[1]?.words[2];
    expect(glob?.glob).toBe(true);
  });

  it("never allows a loop over secrets or outside the project (the glob is judged as itself)", () => {
    for (const command of [
      'for f in ~/.ssh/*; do cat "$f"; done',
      'for f in ~/.ssh/id_*; do wc -c "$f"; done',
      'for f in README.md .env; do cat "$f"; done',
      'for f in /etc/shadow; do cat "$f"; done',
      'for f in .e*; do cat "$f"; done',
      'for f in *; do wc -l "$f"; done',
    ])
      neverAllowed(command);
  });

  it("never binds a variable the script may set another way", () => {
    for (const command of [
      "for f in README.md; do f=~/.ssh/id_rsa; cat $f; done",
      'for f in README.md; do f=~/.ssh/id_rsa; cat "$f"; done',
      'for f in README.md; do read -r f < list.txt; cat "$f"; done',
      'for f in README.md; do printf -v f %s ~/.ssh/id_rsa; cat "$f"; done',
      'for f in README.md; do declare f=~/.ssh/id_rsa; cat "$f"; done',
      'declare -n r=f; for f in README.md; do r=~/.ssh/id_rsa; cat "$f"; done',
      'g() { f=~/.ssh/id_rsa; }; for f in README.md; do g; cat "$f"; done',
      'for f in README.md; do source ./set-f.sh; cat "$f"; done',
      'for f in README.md; do . ./set-f.sh; cat "$f"; done',
      'for f in README.md; do eval "f=$HOME/.ssh/id_rsa"; cat "$f"; done',
      'for f in README.md; do mapfile -t f < list.txt; cat "$f"; done',
      'for f in README.md; do unset f; cat "$f"; done',
      'for f in README.md; do for f in ~/.ssh/id_rsa; do :; done; cat "$f"; done',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
      'for f in README.md; do : "${f:=x}"; cat "$f"; done',
      'for f in README.md; do ((f=1)); cat "$f"; done',
      // After the loop the variable holds its last word, but nothing here models it.
      'for f in README.md; do :; done; cat "$f"',
      // `select` binds what a person types; `for f` without `in` binds the positional parameters.
      'select f in README.md; do cat "$f"; done',
      'for f; do cat "$f"; done',
      // Words only known at run time.
      'for f in $(cat list.txt); do cat "$f"; done',
      'for f in "$@"; do cat "$f"; done',
      'for f in $X; do cat "$f"; done',
    ])
      neverAllowed(command);
  });

  it("never binds an unquoted use of a glob's or a non-plain word's value (bash splits and globs it again)", () => {
    for (const command of [
      "for f in src/*.js; do cat $f; done",
      "for f in 'a b'; do cat $f; done",
      "for f in '*'; do cat $f; done",
      "for f in ~/x; do cat $f; done",
      "IFS=/; for f in src/a.js; do cat $f; done",
    ]) {
      const unit = execs(command).find((u) => u.program === "cat");
      expect(unit?.notUnderstood ?? unit?.dynamic, command).toBeTruthy();
      neverAllowed(command);
    }
  });

  it("keeps a use that is not the whole word unknown (`$f.bak`, `x$f`)", () => {
    for (const command of [
      'for f in src/*.js; do cat "$f.bak"; done',
      'for f in README.md; do cat "x$f"; done',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
      "for f in README.md; do cat ${f}x; done",
    ])
      neverAllowed(command);
  });

  it("judges a write in the loop as a write of each word", () => {
    for (const command of [
      'for f in src/*.js; do cp x.txt "$f"; done',
      'for f in .bashrc; do touch "$f"; done',
    ])
      expect(judge(READ_ONLY, command).action, command).not.toBe("allow");
    const units = analyzeShell('for f in a.txt .bashrc; do cp x "$f"; done').units;
    // Each destination, and the name x lands under if that destination is a directory (copy-landing.test.ts).
    expect(units.filter((u) => u.kind === "write").map((u) => (u.kind === "write" ? u.path : ""))).toEqual([
      "a.txt/x",
      "a.txt",
      ".bashrc/x",
      ".bashrc",
    ]);
  });

  it("property: a loop over known words is judged exactly as the body written out once per word", () => {
    const word = fc.constantFrom(
      "README.md",
      "src/*.js",
      "src/a.ts",
      ".env",
      "~/.ssh/id_rsa",
      "/etc/passwd",
      "docs/*.md",
      "*.md",
      "'a b.txt'",
      "{x,y}.txt",
    );
    const body = fc.constantFrom('wc -l "$f"', 'cat "$f"', 'head -n 3 "$f"', 'ls -l "$f"', 'cp a.txt "$f"');
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), body, (words, cmd) => {
        const loop = `for f in ${words.join(" ")}; do ${cmd}; done`;
        const spelled = words.map((w) => cmd.replace('"$f"', w)).join("; ");
        for (const [name, policy] of everyPolicy) {
          const a = judge(policy, loop).action;
          const b = judge(policy, spelled).action;
          expect(actionRank(a), `${name}: ${loop} (${a}) vs ${spelled} (${b})`).toBe(actionRank(b));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("property: a statement that names the variable anywhere else keeps every loop read unknown", () => {
    const setter = fc.constantFrom(
      "f=~/.ssh/id_rsa",
      "read f",
      "read -r f",
      "printf -v f %s x",
      "declare f=x",
      "local f=x",
      "export f=x",
      "unset f",
      "let f=1",
      "((f++))",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
      ": ${f:=x}",
      "mapfile f",
      "getopts ab f",
      "declare -n f=g",
      "typeset -n r=f",
      "f+=x",
      "f[0]=x",
      "trap 'f=x' DEBUG",
      "eval 'f=x'",
    );
    const where = fc.constantFrom("before", "inside", "after");
    fc.assert(
      fc.property(setter, where, (s, at) => {
        const loop =
          at === "before"
            ? `${s}; for f in README.md; do cat "$f"; done`
            : at === "inside"
              ? `for f in README.md; do ${s}; cat "$f"; done`
              : `for f in README.md; do cat "$f"; ${s}; done`;
        const cat = execs(loop).find((u) => u.program === "cat");
        expect(cat?.notUnderstood, loop).toBeDefined();
      }),
      { numRuns: 200 },
    );
  });
});

describe("a loop variable bash itself sets (red team, round 11)", () => {
  afterAll(() => cleanBashRuns());
  const secret = { "~/.ssh/id_ed25519": "FAKEKEY\n", "README.md": "harmless\n", "sub/README.md": "x\n" };

  it("binds none of bash's own variables: `_`, REPLY, MAPFILE, BASH_REMATCH, LINENO, OPTARG, PWD, …", () => {
    for (const name of ["_", "REPLY", "MAPFILE", "BASH_REMATCH", "LINENO", "RANDOM", "OPTARG", "PWD"]) {
      neverAllowed(`for ${name} in README.md; do cat "$${name}"; done`);
    }
    neverAllowed('for _ in README.md; do echo ~/.ssh/id_ed25519; cat "$_"; done');
  });

  it("still binds an ordinary name, lower or upper case", () => {
    for (const name of ["f", "FILE", "_f", "Reply"]) {
      const command = `for ${name} in README.md; do cat "$${name}"; done`;
      expect(judge(BALANCED, command).action, command).toBe("allow");
    }
  });

  it("property: whenever the judge allows the loop, real bash's `cat` reads only what the judge placed", () => {
    const name = fc.constantFrom(
      ..."_ REPLY MAPFILE BASH_REMATCH OPTARG OPTIND LINENO PWD OLDPWD BASH_COMMAND COPROC".split(" "),
      ..."f file F1 x_".split(" "),
    );
    const body = fc.constantFrom(
      "echo ~/.ssh/id_ed25519",
      ": ~/.ssh/id_ed25519",
      "read <<< ~/.ssh/id_ed25519",
      "mapfile -t <<< ~/.ssh/id_ed25519",
      "[[ ~/.ssh/id_ed25519 =~ .* ]]",
      "getopts f: o -f ~/.ssh/id_ed25519",
      "true",
      "cd sub",
    );
    fc.assert(
      fc.property(name, body, (v, b) => {
        const command = `for ${v} in README.md; do ${b}; cat "$${v}"; done`;
        if (judge(BALANCED, command).action !== "allow") return;
        expect(runInBash(command, { files: secret }).stdout, command).not.toContain("FAKEKEY");
      }),
      { numRuns: 60 },
    );
  });
});
