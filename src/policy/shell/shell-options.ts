// A shell program's own command-line options (`bash -O cdable_vars -c …`, `bash -k -c …`, `bash --rcfile F
// -ic …`): most change what its script means (cdable_vars makes `cd HOME` go to $HOME, -k makes trailing
// NAME=VALUE words environment, -P resolves `cd lnk/..` through the link) or run files never judged
// (-i sources ~/.bashrc, --login ~/.bash_profile, --rcfile FILE). The engine models only the options
// below exactly; any other is a concern, so the call is not allowed without a person (red team, round 6).
import type { Concern } from "./units.ts";
import type { Arg } from "./wrappers.ts";

/**
 * Single-letter options whose effect is modelled: c (the script), e/u (stop on failure or an unset
 * name: fewer commands run, never others), x/v (echo commands or lines to standard error), n (read but
 * run nothing), s (the script is standard input, judged as such).
 */
const SAFE_FLAGS = /^[-+][ceuxvns]+$/;
/** `-o NAME` options with the same effect as a safe flag, or pipefail (only an exit status). */
const SAFE_O_NAMES = new Set(["errexit", "nounset", "xtrace", "verbose", "pipefail", "noexec"]);
/** Long options that only turn start-up files or line editing off. */
const SAFE_LONGS = new Set(["--norc", "--noprofile", "--noediting"]);

/** Why a shell's own options make its script mean something the engine does not model, or null. */
export function shellOptionConcern(argv: readonly Arg[]): Concern | null {
  const name = argv[0]?.value ?? "shell";
  for (let i = 1; i < argv.length; i++) {
    const v = (argv[i] as Arg).value;
    if (v === null)
      return { mention: null, reason: `a dynamic option to ${name} may change what its script means` };
    if (v === "--" || v === "-") return null;
    if (!v.startsWith("-") && !v.startsWith("+")) return null; // the script file or -c string's operands
    if (SAFE_LONGS.has(v)) continue;
    if (/^[-+][A-Za-z]+$/.test(v) && v.includes("o") && /^[-+][ceuxvnso]+$/.test(v)) {
      // `-euo pipefail`: o takes the next word as an option name.
      const opt = argv[++i]?.value;
      if (opt === null || opt === undefined || !SAFE_O_NAMES.has(opt))
        return unmodelled(name, `${v} ${opt ?? "…"}`);
      if (v.includes("c")) return null; // the words after the option name are the script and its operands
      continue;
    }
    if (!SAFE_FLAGS.test(v)) return unmodelled(name, v);
    if (v.startsWith("-") && v.includes("c")) return null;
  }
  return null;
}

// The word a rule must name is the shell with the option (`bash -k`), not the option alone: a rule
// that names `sed -i` or `ls -l` has decided nothing about `bash -i` or `bash -l`.
function unmodelled(name: string, option: string): Concern {
  const shell = name.slice(name.lastIndexOf("/") + 1);
  return {
    mention: `${shell} ${option.split(/[ =]/)[0] as string}`,
    reason: `\`${name} ${option}\` changes how its script is read or run, or runs start-up files never judged`,
  };
}
