// Interpreters understood in their version forms only: every other form runs a program (a script, code
// on the command line or on standard input). perl 5.36 prints -v's text while parsing its switches and
// exits before it reads PERL5OPT or loads a module (-V loads Config and PERL5OPT's modules: not here).
import type { ProgramGrammar } from "../spec.ts";
import { flag } from "../spec.ts";

function versionOnly(names: readonly string[], options: string): ProgramGrammar {
  return {
    names,
    options: options.split(" ").map((n) => flag(n)),
    permute: false,
    abbreviate: false,
    operands: ["string"],
    effect: "read",
    finish(p) {
      const extra = p.operands[0];
      if (extra !== undefined)
        return { word: extra.raw, reason: `${p.program} runs the program it is given` };
      if (p.options.length === 0)
        return { word: p.program, reason: `${p.program} alone runs a program it reads from standard input` };
      return null;
    },
  };
}

export const perl = versionOnly(["perl"], "-v --version");
