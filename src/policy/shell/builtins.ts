// bash builtins the engine must understand beyond their words: those whose arguments name
// variables (a subscript in a name is evaluated as code, and a name may be PATH), and those that
// change what later lines mean or run (hash -p, enable, shopt -s expand_aliases, set -k, trap).
import { type BuiltinOption, builtinArgs } from "./builtin-getopt.ts";
import { lookup } from "./lookup.ts";
import type { Arg } from "./wrappers.ts";

export interface NameBuiltin {
  /** The builtin's internal_getopt string (builtin-getopt.ts); null for `no_options` builtins. */
  getopt: string | null;
  /** Option letters whose value is a variable name (`printf -v NAME`, `read -a NAME`, `wait -p NAME`). */
  nameOptions?: string;
  /** Operands from this index on are variable names; null when no operand is a name. */
  namesFrom: number | null;
  /** Operands are `NAME` or `NAME=value` (the declaration builtins). */
  declaration?: boolean;
  /** Operands are arithmetic expressions (`let`, which reads no options: `let -x` is an expression). */
  arithmetic?: boolean;
}

// The option strings are bash's own (builtins/*.def): declare's DECLARE_OPTS, export's and readonly's
// ATTROPTS, read's and mapfile's lists; 5.3's read adds -E.
const DECLARATION: NameBuiltin = { getopt: "+acfgilnprtuxAFGI", namesFrom: 0, declaration: true };
const ATTRIBUTES: NameBuiltin = { getopt: "aAfnp", namesFrom: 0, declaration: true };
const MAPFILE: NameBuiltin = { getopt: "d:u:n:O:tC:c:s:", namesFrom: 0 };

export const NAME_BUILTINS: Readonly<Record<string, NameBuiltin>> = {
  printf: { getopt: "v:", nameOptions: "v", namesFrom: null },
  read: { getopt: "Eersa:d:i:n:p:t:u:N:", nameOptions: "a", namesFrom: 0 },
  mapfile: MAPFILE,
  readarray: MAPFILE,
  unset: { getopt: "fnv", namesFrom: 0 },
  getopts: { getopt: null, namesFrom: 1 },
  wait: { getopt: "fnp:", nameOptions: "p", namesFrom: null },
  declare: DECLARATION,
  typeset: DECLARATION,
  local: DECLARATION,
  export: ATTRIBUTES,
  readonly: ATTRIBUTES,
  nameref: DECLARATION,
  let: { getopt: null, namesFrom: null, arithmetic: true },
};

/**
 * The words of a name builtin's call that name variables, as bash reads its options (`read -raNAME`,
 * `printf -vNAME`, `wait -npNAME`, `mapfile -tO1 NAME`), and the options; null when `argv` is not a
 * name builtin or `let`.
 */
export function nameWords(
  argv: readonly Arg[],
  name: string = argv[0]?.value ?? "",
): { names: Arg[]; options: BuiltinOption[]; unread: string | null; operands: Arg[] } | null {
  const spec = lookup(NAME_BUILTINS, name);
  if (spec === undefined || spec.arithmetic) return null;
  const args = builtinArgs(spec.getopt, argv);
  const names: Arg[] = [];
  for (const o of args.options) if (o.value && spec.nameOptions?.includes(o.letter)) names.push(o.value);
  if (spec.namesFrom !== null && args.unread === null) names.push(...args.operands.slice(spec.namesFrom));
  return { names, options: args.options, unread: args.unread, operands: args.operands };
}

/**
 * The variables a builtin call sets from something other than the environment (`read line`,
 * `mapfile lines`, `getopts ab opt`, `printf -v out`, `local x=1`): option values are skipped, so
 * `read -p PROMPT x` sets only x.
 */
export function namesSetBy(argv: readonly Arg[]): string[] {
  if (argv[0]?.value === "unset") return [];
  const words = nameWords(argv);
  if (words === null) return [];
  const declaration = lookup(NAME_BUILTINS, argv[0]?.value ?? "")?.declaration === true;
  const out: string[] = [];
  for (const w of words.names) {
    const v = w.value;
    if (v === null) continue;
    const name = declaration ? (v.split(/\+?=/)[0] as string) : v;
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) out.push(name);
  }
  return out;
}

/** `test`/`[` operators whose next word names a variable. */
export const NAME_TESTS: ReadonlySet<string> = new Set(["-v", "-R"]);

/** A variable name bash will not evaluate: a plain name, or one with a number subscript. */
export const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])?$/;

/**
 * Glob options the engine does not expand with: it (and the companion's disk expansion) reads every glob
 * with bash's defaults. nullglob drops a glob that matches nothing (`grep -r KEY [z]z` becomes a recursive
 * grep of `.`), nocaseglob matches `[l]ib` to `Lib`, dotglob makes `*` match `.env` (round 17: set alone,
 * before globless commands, it changes nothing they do). failglob, extglob (always read as on) and
 * globasciiranges change nothing it relies on. globstar makes `**` walk every directory below (red team,
 * round 12): a script that sets it is judged with that (globstar.ts).
 */
const UNMODELLED_GLOB_OPTIONS = new Set(["nullglob", "nocaseglob", "dotglob"]);

/** Why `shopt -s …` (or `set -f`/`-o noglob`) makes the script's globs mean what the engine does not model, or null. */
export function globOptionSet(argv: readonly Arg[]): string | null {
  const args = values(argv);
  if (argv[0]?.value === "set") {
    // noglob keeps `[z]z` as the file named so, where the engine judged the files it matches.
    // Options end at `--`, `-` or the first positional parameter.
    const end = args.findIndex((a) => a === "--" || a === "-" || (a !== null && !/^[-+]/.test(a)));
    const options = end < 0 ? args : args.slice(0, end);
    const off = options.some(
      (a, i) => a === null || /^-[a-zA-Z]*f/.test(a) || (a === "-o" && args[i + 1] === "noglob"),
    );
    return off
      ? "`set -f` (noglob) keeps this script's globs as literal file names (the engine judges what they match)"
      : null;
  }
  const flags = args.filter((a) => a?.startsWith("-")).join("");
  if (!flags.includes("s")) return null;
  const bad = args.find((a) => a === null || UNMODELLED_GLOB_OPTIONS.has(a));
  if (bad === undefined) return null;
  return `\`shopt -s ${bad ?? "…"}\` changes how this script's globs expand (the engine expands them with bash's defaults)`;
}

const SAFE_SHOPT = new Set([
  ...[
    "nullglob",
    "failglob",
    "nocaseglob",
    "nocasematch",
    "globstar",
    "extglob",
    "globasciiranges",
    "dotglob",
  ],
  ...["xpg_echo", "inherit_errexit", "checkwinsize", "checkhash", "huponexit", "shift_verbose"],
  ...["sourcepath", "progcomp", "promptvars", "interactive_comments", "patsub_replacement"],
]);
// Not P (physical): `cd lnk/..` then leaves through the link's target, which the engine does not follow.
const SAFE_SET_FLAGS = /^[-+][euxvfCBbhmnpTEt]+$/;
const SAFE_SET_OPTIONS = new Set([
  ...["errexit", "nounset", "xtrace", "verbose", "pipefail", "noclobber", "noglob", "braceexpand"],
  ...["errtrace", "functrace", "hashall", "monitor", "notify", "noexec", "nolog"],
  ...["ignoreeof", "onecmd", "privileged"],
]);

function values(argv: readonly Arg[]): (string | null)[] {
  return argv.slice(1).map((a) => a.value);
}

/** Why `set …` changes how later lines are read or run, or null. */
function setRisk(argv: readonly Arg[]): string | null {
  const args = values(argv);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null || a === undefined) return "`set` with a dynamic argument";
    if (a === "--" || a === "-") return null; // the rest are positional parameters
    if (a === "-o" || a === "+o") {
      const name = args[++i];
      if (name === undefined) return null; // prints the options
      if (name === null || !SAFE_SET_OPTIONS.has(name))
        return `\`set ${a} ${name ?? "…"}\` changes how later commands are read or run`;
      continue;
    }
    if (!a.startsWith("-") && !a.startsWith("+")) return null; // positional parameters
    // `-euo pipefail`: flags, and `o` takes the next word as an option name.
    const flags = a.replace("o", "");
    if (flags !== a) {
      const name = args[++i];
      if (name === null || (name !== undefined && !SAFE_SET_OPTIONS.has(name)))
        return `\`set ${a} ${name ?? "…"}\` changes how later commands are read or run`;
    }
    if (flags.length > 1 && !SAFE_SET_FLAGS.test(flags))
      return `\`set ${a}\` changes how later commands are read or run (-k, -a, -H and history are not followed)`;
  }
  return null;
}

function shoptRisk(argv: readonly Arg[]): string | null {
  const args = values(argv);
  if (args.includes(null)) return "`shopt` with a dynamic argument";
  const flags = (args as string[]).filter((a) => a.startsWith("-")).join("");
  const names = (args as string[]).filter((a) => !a.startsWith("-"));
  if (!/[su]/.test(flags) || names.length === 0) return null; // listing or querying
  if (flags.includes("o")) return "`shopt -o` sets shell options as `set -o` does";
  const bad = names.find((n) => !SAFE_SHOPT.has(n));
  return bad === undefined
    ? null
    : `\`shopt ${bad}\` changes how later lines are parsed or expanded (aliases, dotglob, lastpipe, extdebug)`;
}

/**
 * `umask MASK` sets the permissions of every file later commands create: a mask that lets the group or
 * others write (`umask 000`) leaves later writes open to any account on the machine. Printing it
 * (`umask`, `-p`, `-S`) and a mask that keeps group and other write bits off are harmless.
 */
function umaskRisk(argv: readonly Arg[]): string | null {
  const args = values(argv);
  if (args.includes(null)) return "`umask` with a dynamic argument";
  const masks = (args as string[]).filter((a) => a !== "-p" && a !== "-S" && a !== "--");
  if (masks.length === 0) return null;
  const mask = masks[0] as string;
  if (masks.length === 1 && /^[0-7]{1,4}$/.test(mask) && (Number.parseInt(mask, 8) & 0o022) === 0o022)
    return null;
  return `\`umask ${masks.join(" ")}\` lets later commands create files that others can write`;
}

/**
 * `bind` in an agent's shell can only list (`-p`, `-P`, `-s`, `-S`, `-v`, `-V`, `-X`, `-l`, `-q NAME`,
 * `-u NAME`, `-m KEYMAP`): `-x` runs commands, and `-f FILE` or a binding line `$include FILE` make readline
 * read FILE and print each line it cannot parse (`bind -f ~/.ssh/id_ed25519` prints the key; red team,
 * round 12). Options are read as bash reads them (builtin-getopt.ts).
 */
function bindRisk(argv: readonly Arg[]): string | null {
  const args = builtinArgs("lvpVPsSXf:q:u:m:r:x:", argv);
  if (args.help) return null;
  if (args.options.some((o) => o.letter === "x")) return "`bind -x` runs commands";
  if (args.unread !== null || args.operands.length > 0 || args.options.some((o) => /[fr]/.test(o.letter)))
    return "`bind` with a file or a binding line makes readline read files (`-f FILE`, `$include FILE`) and print lines it cannot parse";
  return null;
}

/**
 * Builtins that change what later lines mean or run, with why; the command then needs a person
 * unless a rule names the builtin's option (for `hash -p`, `-p`) or the builtin itself.
 */
export const ESCAPING_BUILTINS: Readonly<Record<string, (argv: readonly Arg[]) => string | null>> = {
  hash: (argv) =>
    values(argv).some((a) => a === null || a.startsWith("-p") || /^-[a-z]*p/.test(a))
      ? "`hash -p` makes a command name run another file"
      : null,
  enable: (argv) =>
    argv.length > 1 ? "`enable` loads builtins from shared objects or turns builtins off" : null,
  fc: () => "`fc` runs commands from the history through an editor",
  alias: (argv) =>
    values(argv).some((a) => a === null || a.includes("=")) ? "an alias changes what later lines run" : null,
  shopt: shoptRisk,
  set: setRisk,
  bind: bindRisk,
  // -W's word list is expanded by the builtin itself, substitutions included: `compgen -W '$(cmd)'`
  // runs cmd and `compgen -W '$TOKEN'` prints the variable (bash's manual: "expanded using …").
  complete: (argv) =>
    values(argv).some((a) => a === null || /^-[a-zA-Z]*[CFW]/.test(a))
      ? "`complete -C/-F/-W` runs a command or function, or expands a word list as shell code"
      : null,
  compgen: (argv) =>
    values(argv).some((a) => a === null || /^-[a-zA-Z]*[CFW]/.test(a))
      ? "`compgen -C/-F/-W` runs a command or function, or expands a word list as shell code"
      : null,
  history: (argv) => (argv.length > 1 ? "`history` reads, writes or runs the history" : null),
  // `jobs -x CMD ARGS` runs CMD with job specs in ARGS replaced by process ids (red team, round 9).
  jobs: (argv) =>
    values(argv).some((a) => a === null || /^-[a-zA-Z]*x/.test(a)) ? "`jobs -x` runs a command" : null,
  umask: umaskRisk,
  trap: () => null, // judged through its command string (analysis.ts)
};

/** Commands after which the working directory is not known (they run code the engine cannot see). */
export const CWD_UNKNOWN_AFTER: ReadonlySet<string> = new Set(["source", "."]);
