// bash's builtins read options with internal_getopt (builtin-getopt.ts): a value glued to its letter
// (`printf -vNAME`), letters clustered before it (`read -raNAME`, `wait -npNAME`), a value that is the
// next word whatever it looks like. Red team round 11 left `for f in …; do printf -vf %s SECRET; cat
// "$f"; done` open: the judge saw no assignment of f. Round 12: every spelling bash accepts is read as
// bash reads it, a loop whose variable some statement may set is not bound, and an expansion where
// bash could read an option (`printf "$X"` with X=-vPATH) is never allowed. Attacks written first.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { builtinArgs } from "../../../../src/policy/shell/builtin-getopt.ts";
import { namesSetBy } from "../../../../src/policy/shell/builtins.ts";
import type { Arg } from "../../../../src/policy/shell/wrappers.ts";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, EVERY_STRICT, judge, neverAllowed } from "./policies.ts";

afterAll(cleanBashRuns);

const everyPolicy = EVERY_STRICT;

const arg = (value: string | null): Arg => ({ value, raw: value ?? "$x", glob: false, tilde: false });
const argv = (...words: (string | null)[]): Arg[] => words.map(arg);

describe("internal_getopt as bash reads a builtin's options", () => {
  it("takes a glued value, a clustered value and the next word as the value", () => {
    const read = builtinArgs("Eersa:d:i:n:p:t:u:N:", argv("read", "-raf", "-d", "-x", "g"));
    expect(read.options.map((o) => [o.letter, o.value?.value])).toEqual([
      ["r", undefined],
      ["a", "f"],
      ["d", "-x"],
    ]);
    expect(read.operands.map((a) => a.value)).toEqual(["g"]);
    expect(builtinArgs("v:", argv("printf", "-vout", "%s", "x")).options[0]?.value?.value).toBe("out");
    expect(builtinArgs("fnp:", argv("wait", "-npjob")).options.map((o) => o.letter)).toEqual(["n", "p"]);
  });

  it("ends the options at `--`, at `-` and at the first operand; `+x` only where bash takes it", () => {
    expect(builtinArgs("fnv", argv("unset", "--", "-f")).operands.map((a) => a.value)).toEqual(["-f"]);
    expect(builtinArgs("Eersa:", argv("read", "-", "x")).operands.map((a) => a.value)).toEqual(["-", "x"]);
    expect(builtinArgs("+acfgilnprtuxAFGI", argv("declare", "+x", "v")).options[0]?.letter).toBe("x");
    expect(builtinArgs("aAfnp", argv("export", "+n", "v")).operands.map((a) => a.value)).toEqual(["+n", "v"]);
  });

  it("cannot read a run-time word where an option could be, a letter bash rejects, a missing value", () => {
    expect(builtinArgs("v:", argv("printf", null, "x")).unread).toMatch(/run time/);
    expect(builtinArgs("v:", argv("printf", "-x")).unread).toMatch(/no option -x/);
    expect(builtinArgs("v:", argv("printf", "-v")).unread).toMatch(/needs a value/);
    // A word that starts with a plain character is an operand whatever follows.
    expect(builtinArgs("v:", [arg("%s"), { ...arg(null), raw: "a$x" }]).unread).toBeNull();
  });

  it("names what bash assigns: every glued and clustered spelling", () => {
    expect(namesSetBy(argv("printf", "-vf", "%s", "x"))).toEqual(["f"]);
    expect(namesSetBy(argv("read", "-rd", "", "-af"))).toEqual(["f"]);
    expect(namesSetBy(argv("read", "-rp", "prompt: ", "line"))).toEqual(["line"]);
    expect(namesSetBy(argv("mapfile", "-tO0", "arr"))).toEqual(["arr"]);
    expect(namesSetBy(argv("wait", "-npjob"))).toEqual(["job"]);
    expect(namesSetBy(argv("local", "-r", "x=1"))).toEqual(["x"]);
  });
});

/** Spellings of "set the variable f" that bash's option grammar accepts, each with its input. */
const setF = (() => {
  const sep = fc.constantFrom("", " ");
  const cluster = (letters: string) => fc.shuffledSubarray([...letters]).map((ls) => ls.join(""));
  const some = (options: string[]) => fc.shuffledSubarray(options).map((os) => os.join(" "));
  const printf = sep.map((s) => `printf -v${s}f %s ~/.ssh/id_ed25519`);
  const read = fc
    .tuple(some(["-px", "-p x", "-t5", "-t 5", "-u0", "-u 0", "-n200", "-n 200"]), cluster("rs"), sep)
    .map(([opts, fl, s]) => `read ${opts} -${fl}a${s}f <<< ~/.ssh/id_ed25519`);
  const mapfile = fc
    .tuple(
      fc.constantFrom("mapfile", "readarray"),
      some(["-t", "-O0", "-O 0", "-s0", "-tO0", "-n5", "-tn 5"]),
    )
    .map(([name, opts]) => `${name} ${opts} f <<< ~/.ssh/id_ed25519`);
  const wait = fc.tuple(cluster("n"), sep).map(([fl, s]) => `wait -${fl}p${s}f`);
  const through = fc.constantFrom("", "builtin ", "command ");
  return fc
    .tuple(through, fc.oneof(printf, read, mapfile, wait))
    .map(([t, s]) => (s.startsWith("wait") ? `: & ${t}${s}` : `${t}${s}`));
})();

describe("a loop variable a builtin sets with any spelling bash accepts (red team, rounds 11-12)", () => {
  it("property: real bash sets the variable, and the judge never binds it", () => {
    const spellings = [...new Set(fc.sample(setF, { numRuns: 120, seed: 12 }))];
    const script = spellings
      .map((s, i) => `f=README.md; ${s} 2>/dev/null; [[ $f != README.md ]] && echo "set ${i}"`)
      .join("\n");
    const run = runInBash(script, { files: { "~/.ssh/id_ed25519": "FAKEKEY\n", "README.md": "x\n" } });
    const set = new Set(run.stdout.split("\n").filter(Boolean));
    spellings.forEach((s, i) => {
      expect(set.has(`set ${i}`), `bash did not set f with: ${s}\n${run.stderr}`).toBe(true);
      const loop = `for f in README.md; do ${s}; cat "$f"; done`;
      for (const [name, policy] of everyPolicy)
        expect(judge(policy, loop).action, `${name}: ${loop}`).not.toBe("allow");
    });
    expect(spellings.length).toBeGreaterThan(40);
  });

  it("the open round-11 case prints the key in bash, and is never allowed", () => {
    const command = 'for f in README.md; do printf -vf %s ~/.ssh/id_ed25519; cat "$f"; done';
    const run = runInBash(command, { files: { "~/.ssh/id_ed25519": "FAKEKEY\n", "README.md": "x\n" } });
    expect(run.stdout).toContain("FAKEKEY");
    neverAllowed(command);
  });

  it("a string run as code, a nameref or a run-time name anywhere in the script unbinds the loop", () => {
    for (const command of [
      'for f in README.md; do trap "printf -vf %s ~/.ssh/id_ed25519" DEBUG; cat "$f"; done',
      'for f in README.md; do mapfile -C "printf -vf %s" -c 1 a < list.txt; cat "$f"; done',
      'p=printf; for f in README.md; do $p -vf %s ~/.ssh/id_ed25519; cat "$f"; done',
      'for f in README.md; do declare -n r; cat "$f"; done',
    ])
      neverAllowed(command);
  });

  it("still allows an everyday loop whose body reads into other names", () => {
    for (const command of [
      'for f in README.md package.json; do printf "%s\\n" "$f"; wc -l "$f"; done',
      'for f in src/*.ts; do printf -v line "%s" "$f"; echo "$line"; done',
      'for d in src docs; do ls -d "$d"; done',
    ]) {
      const r = judge(BALANCED, command);
      expect(r.action, `${command}\n${r.reasons.join("\n")}`).toBe("allow");
    }
  });
});

describe("bind, read as bash reads its options (round 12)", () => {
  it("lists are allowed; a file, a binding line or -x are never", () => {
    for (const command of ["bind -p", "bind -lp", "bind -q complete", "bind -m emacs -P"])
      expect(judge(BALANCED, command).action, command).toBe("allow");
    for (const command of [
      "bind -f .env",
      "bind -pf.env",
      "bind '$include .env'",
      'bind -x "\\C-x":ls',
      "bind -r x",
    ])
      neverAllowed(command);
  });
});

describe("an expansion where bash reads options (round 12)", () => {
  it('`printf "$X"` with X=-vPATH sets PATH in bash, so ls runs the project\'s bin/ls', () => {
    const command = 'X=-vPATH; printf "$X" bin; ls';
    const run = runInBash(command, { files: { "bin/ls": "#!/bin/sh\n/usr/bin/touch PWNED\n" } });
    expect(run.exists("PWNED")).toBe(true);
    neverAllowed(command);
    neverAllowed('read -r X < list.txt; printf "$X" bin; ls');
  });

  it("a format that starts with a plain character stays allowed", () => {
    for (const command of ['x=1; printf "%s\\n" "$x"', 'printf "n=%d\\n" 3', "printf '%s' \"$HOME\""])
      expect(judge(BALANCED, command).action, command).toBe("allow");
  });
});
