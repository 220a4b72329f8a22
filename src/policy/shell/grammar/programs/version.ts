// Interpreters understood in their version forms only: every other form runs a program (a script, code
// on the command line or on standard input). perl 5.36 prints -v's text while parsing its switches and
// exits before it reads PERL5OPT or loads a module (-V loads Config and PERL5OPT's modules: not here).
// java (OpenJDK 17) -version/--version starts the JVM, which loads the agents JAVA_TOOL_OPTIONS,
// _JAVA_OPTIONS and JDK_JAVA_OPTIONS name: set by the command they ask (env-vars.ts), and in the agent's
// environment the disk asks (guards/jvm-options.ts). It only looks at .hotspotrc (not read without -XX:Flags).
// Other programs here only by their version query, proven by strace (no program run, no connection):
// gcc/g++ 12 `--version` prints before it reads a specs file or runs a subprogram (cc1, as, collect2), only
// locale files opened; -v and the -dump* options are not here. docker 28 `--version`/`-v` prints the client's
// version with no daemon, no context (DOCKER_HOST, a context's ssh://) and no CLI plugin or hook run: it only
// parses config.json. Not kubectl `version --client` (it runs the kubeconfig's exec credential plugin), nor
// terraform `version` (its checkpoint looks up checkpoint-api.hashicorp.com unless CHECKPOINT_DISABLE).
import type { ProgramGrammar } from "../spec.ts";
import { flag } from "../spec.ts";

/** What any other form of the program does, for the reason it asks. */
interface Others {
  /** An operand: `perl x.pl` runs it. */
  given: string;
  /** No option: `perl` alone reads a program from standard input. */
  alone: string;
}

const INTERPRETER: Others = {
  given: "runs the program it is given",
  alone: "alone runs a program it reads from standard input",
};

function versionOnly(
  names: readonly string[],
  options: string,
  singleDash = false,
  others = INTERPRETER,
): ProgramGrammar {
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
      if (extra !== undefined) return { word: extra.raw, reason: `${p.program} ${others.given}` };
      if (p.options.length === 0) return { word: p.program, reason: `${p.program} ${others.alone}` };
      return null;
    },
  };
}

export const perl = versionOnly(["perl"], "-v --version");
/** java's options are whole words after one dash (`-version`), as its launcher reads them. */
export const java = versionOnly(["java"], "-version --version -fullversion", true);
export const gcc = versionOnly(["gcc", "g++"], "--version", false, {
  given: "compiles what it is given, running its subprograms",
  alone: "alone is not a version query",
});
export const docker = versionOnly(["docker"], "-v --version", false, {
  given: "talks to the Docker daemon, or runs a CLI plugin (only its version query is understood)",
  alone: "alone is not a version query",
});
