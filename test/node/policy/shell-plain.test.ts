// The plain-command shortcut (shell-parser.ts) must give exactly the parser's answer, and must
// decline anything the parser would read differently.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseBash, parseBashWithParser, plainCommand } from "../../../src/policy/shell/parser.ts";

function parsed(src: string, parse: (s: string) => unknown): unknown {
  try {
    return parse(src);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

// Words that are plain, words with characters the shortcut must decline, and every reserved
// word or builtin that mvdan/sh turns into its own node.
const word = fc.oneof(
  fc.constantFrom(
    "git",
    "status",
    "npm",
    "run",
    "build",
    "-la",
    "--n=5",
    "a=b",
    "x:y",
    "@",
    "+x",
    "%1",
    "1,2",
    "./a",
  ),
  fc.constantFrom(..."if then elif else fi for select in do done while until case esac function".split(" ")),
  fc.constantFrom(
    ..."time coproc let declare local export readonly typeset nameref @test eval exec".split(" "),
  ),
  fc.constantFrom(
    "{",
    "}",
    "!",
    "[[",
    "]]",
    "((",
    "#x",
    "~",
    "a*",
    "$x",
    "'q'",
    "\\n",
    "a;",
    "a|b",
    "a&",
    "<f",
  ),
  fc.stringMatching(/^[A-Za-z0-9_./:,+=@%-]{1,6}$/),
);
const blank = fc.constantFrom(" ", "  ", "\t", " \t ");
const line = fc
  .tuple(fc.array(fc.tuple(word, blank), { minLength: 1, maxLength: 5 }), fc.constantFrom("", " ", "\t"))
  .map(([ws, lead]) => lead + ws.map(([w, b]) => w + b).join(""));

describe("plain-command shortcut", () => {
  it("answers exactly as the parser does, or declines", () => {
    let taken = 0;
    fc.assert(
      fc.property(line, (src) => {
        const quick = plainCommand(src);
        if (quick !== null) {
          taken++;
          expect(quick, JSON.stringify(src)).toEqual(parseBashWithParser(src));
        }
        expect(parsed(src, parseBash)).toEqual(parsed(src, parseBashWithParser));
      }),
      { numRuns: 2000 },
    );
    expect(taken).toBeGreaterThan(100);
  });

  it("takes the everyday commands and declines the rest", () => {
    for (const src of ["git status", "npm run build -- --watch", "ls -la ./src", "tool12 --flag x --n=5"])
      expect(plainCommand(src), src).not.toBeNull();
    for (const src of ["X=1 ls", "export A=1", "time ls", "ls ~", "ls *", "echo $HOME", "a; b", "", "  "])
      expect(plainCommand(src), src).toBeNull();
  });
});
