// Interpreters understood in their version forms only: every other form runs a program (a script, code
// on the command line or on standard input). perl 5.36 prints -v's text while parsing its switches and
// exits before it reads PERL5OPT or loads a module (-V loads Config and PERL5OPT's modules: not here).
// java (OpenJDK 17) -version/--version starts the JVM, which loads the agents JAVA_TOOL_OPTIONS,
// _JAVA_OPTIONS and JDK_JAVA_OPTIONS name: set by the command they ask (env-vars.ts), and in the agent's
// environment the disk asks (guards/jvm-options.ts). It only looks at .hotspotrc (not read without -XX:Flags).
import type { ProgramGrammar } from "../spec.ts";
import { flag } from "../spec.ts";

function versionOnly(names: readonly string[], options: string, singleDash = false): ProgramGrammar {
  return {
    names,
    singleDash,
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
/** java's options are whole words after one dash (`-version`), as its launcher reads them. */
export const java = versionOnly(["java"], "-version --version -fullversion", true);
