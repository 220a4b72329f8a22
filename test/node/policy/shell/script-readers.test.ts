// Class: sed scripts and awk programs read differently by the judge and by sed or awk (red team,
// round 8): a text line GNU sed ends where the judge read on, a division the judge took for a
// regex. Each attack is run in real sed and awk (GNU sed 4.9 and mawk here); the readers are then
// checked against the programs themselves on generated scripts: whatever sed or awk runs or writes,
// the reader reports.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { scanAwk } from "../../../../src/policy/shell/awk-program.ts";
import { scanSed } from "../../../../src/policy/shell/sed-script.ts";
import { cleanBashRuns } from "./bash-proof.ts";
import { judge, READ_ONLY } from "./policies.ts";
import { has, provenCases } from "./proven-case.ts";

afterAll(cleanBashRuns);

const P = "touch PWNED";
const README = { files: { "README.md": "line one\nline two\n" } };

provenCases("sed text that ends where the judge read on", [
  {
    name: "a text ending in an escaped backslash",
    command: `sed 'a foo\\\\\n1e ${P}' README.md`,
    setup: README,
    proof: "PWNED",
  },
  {
    name: "the same in two -e pieces",
    command: `sed -e 'a foo\\\\' -e '1e ${P}' README.md`,
    setup: README,
    proof: "PWNED",
  },
  {
    name: "a\\ then an escaped backslash as the text",
    command: `sed -e 'a\\\\' -e '1e ${P}' README.md`,
    setup: README,
    proof: "PWNED",
  },
  {
    name: "i text then w",
    command: `sed -e 'i x\\\\' -e '1w PWNED' README.md`,
    setup: README,
    proof: "PWNED",
    danger: "read-only",
  },
  {
    name: "a text then r of a secret",
    command: `sed -e '1a x\\\\' -e '1r ../home/.ssh/id_ed25519' README.md`,
    setup: { files: { ...README.files, "~/.ssh/id_ed25519": "SECRET-KEY\n" } },
    proof: (r) => r.stdout.includes("SECRET-KEY"),
  },
  {
    name: "s///e after a label ending at }",
    command: `printf '${P}\\n' | sed -n '{:a};s/x*//e'`,
    proof: "PWNED",
  },
]);

provenCases("awk divisions the judge took for a regex", [
  {
    name: "system() between two divisions",
    command: `awk 'NR==1 { x = 1 / 2; system("${P}"); y = 3 / 4 }' README.md`,
    setup: README,
    proof: "PWNED",
  },
  {
    name: "a string continued by backslash-newline",
    command: `awk 'NR==1 { print "a\\\n" ; system("${P}") }' README.md`,
    setup: README,
    proof: "PWNED",
  },
  {
    name: "a division by a name then a regex-looking tail",
    command: `awk 'function f(x){return x / 2} NR==1 {system("${P}") / 3}' README.md`,
    setup: README,
    proof: "PWNED",
  },
  {
    name: "print > file between divisions",
    command: `awk 'NR==1 { x = NR / 2; print "x" > "PWNED"; y = NR / 2 }' README.md`,
    setup: README,
    proof: "PWNED",
  },
  {
    name: "getline < a secret between divisions",
    command: `awk 'NR==1 { x = NR / 2; getline s < "../home/.netrc"; print s; y = NR / 2 }' README.md`,
    setup: { files: { ...README.files, "~/.netrc": "machine x password SECRET\n" } },
    proof: (r) => r.stdout.includes("SECRET"),
  },
  {
    name: "a field divided",
    command: `awk 'NR==1 { x = $1/2; system("${P}"); y = x/3 }' README.md`,
    setup: README,
    proof: "PWNED",
  },
  {
    name: "an element divided",
    command: `awk 'NR==1 { a[1]=4; x = a[1]/2; system("${P}"); y = x/3 }' README.md`,
    setup: README,
    proof: "PWNED",
  },
  {
    name: "a /= assignment",
    command: `awk 'NR==1 { x = 4; x /= 2; system("${P}"); y = x/3 }' README.md`,
    setup: README,
    proof: "PWNED",
  },
  {
    name: "a parenthesis divided",
    command: `awk 'NR==1 { x = (NR)/2; system("${P}"); y = (x)/3 }' README.md`,
    setup: README,
    proof: "PWNED",
  },
  // mawk reads a regex after `++` (so it runs nothing here); gawk divides and runs the system().
  {
    name: "a post-increment divided",
    command: `awk 'NR==1 { n = 1; x = n++/2; system("${P}"); y = n--/3 }' README.md`,
  },
  {
    name: "getline's result divided",
    command: `awk 'NR==1 { x = getline/2; system("${P}"); y = x/3 }' README.md`,
    setup: README,
    proof: "PWNED",
  },
  {
    name: "a regex with a slash in brackets",
    command: `awk 'NR==1 && /[/]/ { } NR==1 { system("${P}") } /x[/]/' README.md`,
    setup: README,
    proof: "PWNED",
  },
  {
    name: "a comment holding a quote",
    command: `awk 'NR==1 { x = 1 # "\n system("${P}") }' README.md`,
    setup: README,
    proof: "PWNED",
  },
]);

describe("the sed reader, by GNU sed's own grammar", () => {
  it.each([
    ["a foo\\\\\n1e ls", ["exec"]],
    ["a foo\\\n1e ls", []],
    ["a\\\\\n1e ls", ["exec"]],
    ["a\\\nfoo\\\n1e ls", []],
    ["1a foo; w out", []],
    ["$!{N;s/a/b/ e}", ["exec"]],
    ["s/a/b/ w out", ["write"]],
    ["s/a/b/w out;p", ["write"]],
    ["s/[/]/x/;e", ["exec"]],
    ["y/a\\/b/c\\/d/;r in", ["read"]],
    ["s/x/a\\\nb/;1e ls", ["exec"]],
    ["{:a};w x", ["write"]],
    [":a}w x", null],
    ["b end # w x", []],
    ["#n\n1e ls", ["exec"]],
    ["\\,x,p; W out", ["write"]],
    ["F;v;z;=;l 5;q 3", []],
    ["s/a/b/", []],
    ["s/a/b/ x", null],
    ["a", null],
  ])("%j finds %j", (script, risks) => {
    expect(scanSed(script)?.map((f) => f.risk) ?? null).toEqual(risks);
  });
});

describe("the awk reader, by where awk starts a regex", () => {
  it.each([
    ['NR==1 { x = 1 / 2; system("id"); y = 3 / 4 }', ["exec"]],
    ["{ x = $1/2 } /a|b/ { print }", []],
    ["$0 ~ /=/ { print }", []],
    ["{ a /= 2; print a }", []],
    ["{ print x[1]/2, getline/2 }", []],
    ['{ if (x) /re/ ; system("id") }', ["exec"]],
    ['{ x = length / 2; system("id"); y = 2 / 3 }', ["exec"]],
    ['{ print "a\\\n"; system("id") }', ["exec"]],
    ["/[/]/ { print }", []],
    ['{ print $1 > "out" }', ["write"]],
    ["{ print ($1 > 2) }", ["write"]],
    ["{ if ($1 > 2) print }", []],
    ['{ "date" | getline d }', ["exec"]],
    ['{ getline l < "f" }', ["read"]],
    ['{ ARGV[1] = "x" }', ["read"]],
    ["$1 == ARGV[1] { n++ } END { print ARGC, (1 in ARGV) }", []],
    ['{ sub(/a/, "b", ARGV[1]) }', ["read"]],
    ["{ split($0, ARGV) }", ["read"]],
    ["{ getline ARGV[2] }", ["read"]],
    ["{ delete ARGV; ARGC++ }", ["read"]],
    ["BEGIN { for (ARGC in a) ; }", ["read"]],
    ['function f(a) { a[1] = "x" } BEGIN { f(ARGV) }', ["read"]],
    ['@include "x"', ["exec"]],
    ['BEGIN { f = "system"; @f("id") }', ["exec"]],
    ['{ x = 1 } # a comment with / and " in it', []],
    ["{ print 'x' }", null],
    ['{ print "unterminated }', null],
  ])("%j finds %j", (program, risks) => {
    expect(scanAwk(program)?.map((f) => f.risk) ?? null).toEqual(risks);
  });

  it("never reports nothing for a program that calls system() as a statement", () => {
    const operand = fc.constantFrom(
      "x",
      "NR",
      "$1",
      "a[1]",
      "(x)",
      "x++",
      "1",
      '"s"',
      "/r/",
      "length",
      "getline",
    );
    const expr = fc
      .tuple(operand, fc.constantFrom(" / ", "/", " * ", " ~ ", " + ", " > ", " < ", " /= "), operand)
      .map(([a, op, b]) => `${a}${op}${b}`);
    const statement = fc.oneof(
      expr.map((e) => `x = ${e}`),
      expr.map((e) => `if (${e}) y = 1`),
      fc.constantFrom('print "a/b"', "print $1", "n++", 'z = "\\""', "# c / d\n", "w = x /\n 2"),
    );
    fc.assert(
      fc.property(
        fc.array(statement, { maxLength: 5 }),
        fc.array(statement, { maxLength: 5 }),
        (before, after) => {
          const program = `{ ${[...before, 'system("id")', ...after].join("; ")} }`;
          const found = scanAwk(program);
          expect(found === null || found.some((f) => f.risk === "exec"), program).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});

/** Runs `program` on one line of input in a fresh directory; returns the names of the files that exist after. */
function runIn(program: string, args: readonly string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), "airlock-script-"));
  try {
    spawnSync(program, args, {
      cwd: dir,
      input: "x\n",
      timeout: 5000,
      env: { PATH: "/usr/bin:/bin", LANG: "C" },
    });
    return readdirSync(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the readers against the programs themselves", () => {
  it("GNU sed: a generated script that runs or writes is reported as running or writing", () => {
    const piece = fc.constantFrom(
      "a foo\\\\",
      "a foo\\",
      "a\\",
      "i\\\\",
      "c x",
      "1e touch RAN",
      "e touch RAN",
      "s/x/touch RAN/e",
      "w WROTE",
      "s/x/y/w WROTE",
      "r in",
      "s/[/]/x/",
      "s/a\\/b/c/",
      "y/x/y/",
      "# note \\",
      ":a",
      "b a",
      "$!N",
      "p",
      "{",
      "}",
      "s/x/a\\",
      "1~2d",
      "/x/I,+1{",
      "\\,x,p",
      "q",
      "l 3",
    );
    const sep = fc.constantFrom("\n", ";", " ", "\n\n");
    let ran = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(piece, sep), { minLength: 1, maxLength: 6 }), (parts) => {
        const script = parts.map(([p, s]) => p + s).join("");
        const files = runIn("sed", ["-n", "-e", script]);
        const found = scanSed(script);
        if (files.includes("RAN")) {
          ran++;
          expect(found === null || found.some((f) => f.risk === "exec"), script).toBe(true);
        }
        if (files.includes("WROTE"))
          expect(found === null || found.some((f) => f.risk === "write" || f.risk === "exec"), script).toBe(
            true,
          );
      }),
      { numRuns: 250 },
    );
    expect(ran).toBeGreaterThan(10);
  });

  it.skipIf(!has("awk"))("awk: a generated program that runs a command is reported as running one", () => {
    const operand = fc.constantFrom(
      "x",
      "NR",
      "$1",
      "a[1]",
      "(x)",
      "x++",
      "1",
      '"s"',
      "/r/",
      "length",
      "getline",
    );
    const op = fc.constantFrom(" / ", "/", " * ", " ~ ", " + ", " /= ", " ");
    const statement = fc.oneof(
      fc.tuple(operand, op, operand).map(([a, o, b]) => `x = ${a}${o}${b}`),
      fc.constantFrom(
        'system("touch RAN")',
        'print "a/b"',
        "n++",
        'z = "\\"/"',
        "# c / d\n",
        'print "" | "touch RAN"',
      ),
      fc.constantFrom("x = 1 / 2;", "/[/]/", "if (x) /r/", 'y = "a\\\n"', 'print > "WROTE"'),
    );
    let ran = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(statement, fc.constantFrom("; ", "\n")), { minLength: 1, maxLength: 6 }),
        (parts) => {
          const program = `{ ${parts.map(([s, sep]) => s + sep).join("")} }`;
          const files = runIn("awk", [program]);
          const found = scanAwk(program);
          if (files.includes("RAN")) {
            ran++;
            expect(found === null || found.some((f) => f.risk === "exec"), program).toBe(true);
          }
          if (files.includes("WROTE"))
            expect(
              found === null || found.some((f) => f.risk === "write" || f.risk === "exec"),
              program,
            ).toBe(true);
        },
      ),
      { numRuns: 250 },
    );
    expect(ran).toBeGreaterThan(10);
  });
});

describe("the judge on the red team's sed and awk calls", () => {
  it("never allows them, and still allows everyday sed and awk", () => {
    for (const command of [
      "sed 'a foo\\\\\n1e cat ~/.netrc' README.md",
      "sed -e 'a foo\\\\' -e '1e cat ~/.netrc' README.md",
      "awk 'NR==1 { x = 1 / 2; system(\"cat ~/.ssh/id_ed25519\"); y = 3 / 4 }' README.md",
    ])
      expect(judge(READ_ONLY, command).action, command).not.toBe("allow");
    for (const command of [
      "sed -n '10,30p' src/util.ts",
      "sed -n -e 's/a/b/p' -e '/x/d' README.md",
      "awk '{print $1}' README.md",
      "awk -F: '$3 > 100 { print $1 / 2 }' README.md",
    ])
      expect(judge(READ_ONLY, command).action, command).toBe("allow");
  });
});
