// Which file a bare program name runs is bash's PATH lookup in the agent's environment, which only the
// disk can answer (guards/path-lookup.ts): here, the units that look a name up, where each runs (for a
// relative PATH entry) and what the command wrote before it (a program it may have put on PATH).
import type { DiskTarget } from "./call-facts.ts";
import { VIA_NPX } from "./package-targets.ts";
import { basename, resolveShellDir } from "./paths.ts";
import type { ExecUnit } from "./shell/units.ts";

/** bash 5.2's builtins (`enable -a`): bash runs these itself, never a file found on PATH. */
const BASH_BUILTINS: ReadonlySet<string> = new Set([
  ...[".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen"],
  ...["complete", "compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec"],
  ...["exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let"],
  ...["local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly"],
  ...["return", "set", "shift", "shopt", "source", "suspend", "test", "times", "trap", "true", "type"],
  ...["typeset", "ulimit", "umask", "unalias", "unset", "wait", "[[", "(("],
]);

/** Wrappers that run a builtin as bash's own (`command echo`); any other (env, xargs, exec) execs a file. */
const KEEPS_BUILTINS = /^(command|builtin)(\s|$)/;

/** Whether bash (or the wrapper the unit runs in) looks the unit's program up on PATH. */
function looksUp(unit: ExecUnit, before: ExecUnit | undefined): boolean {
  const head = unit.argv[0];
  if (head === undefined || head === "" || head.includes("/") || unit.words[0]?.value === null) return false;
  if (unit.via !== undefined && VIA_NPX.test(unit.via)) return false;
  // `/bin/rm` is judged again as `rm` right after it (shell/command.ts): the same file, no lookup.
  if (
    before?.argv[0]?.includes("/") === true &&
    basename(before.argv[0]) === head &&
    before.argv.slice(1).join("\0") === unit.argv.slice(1).join("\0")
  )
    return false;
  if (!BASH_BUILTINS.has(head)) return true;
  return unit.via !== undefined && !KEEPS_BUILTINS.test(unit.via);
}

const goEnvAll = (args: readonly string[]) =>
  args[0] === "env" && args.slice(1).every((a) => a.startsWith("-"));
/** `cargo -vV`, `cargo --version --verbose`, `cargo version -v` (a `+toolchain` first aside). */
const cargoVerboseVersion = (args: readonly string[]) => {
  const words = args[0]?.startsWith("+") ? args.slice(1) : args;
  const version = words[0] === "version" || words.some((w) => w === "--version" || /^-[a-zA-Z]*V/.test(w));
  return version && words.some((w) => w === "--verbose" || /^-[a-zA-Z]*v/.test(w));
};

/** What git-mergetool--lib runs by bare name while it lists the diff tools. */
const DIFFTOOL_HELP_HELPERS = [
  "grep",
  "sort",
  "env",
  "cut",
  "ls",
  "envsubst",
  "uname",
  "sed",
  "gettext",
  "basename",
];

/** Debian's lsb_release, a sh script, parses its options with getopt and os-release with cut and tr. */
const LSB_RELEASE_HELPERS = ["getopt", "cut", "tr"];

/**
 * Programs that run others by their bare name, found on PATH as bash finds them, each seen with `strace -f
 * -e trace=execve` (red team, rounds 16/17): `cargo -vV` runs lsb_release and getconf for its OS line, and Debian's lsb_release runs getopt, cut and tr; `go env`
 * probes the C compiler, gcc, which runs as and ld (`go env GOPATH` runs none).
 */
const PATH_HELPERS: Readonly<Record<string, (args: readonly string[]) => readonly string[]>> = {
  cargo: (args) => (cargoVerboseVersion(args) ? ["lsb_release", "getconf", ...LSB_RELEASE_HELPERS] : []),
  lsb_release: () => LSB_RELEASE_HELPERS,
  go: (args) => (goEnvAll(args) ? ["gcc", "as", "ld"] : []),
  // Debian's egrep and fgrep are sh scripts that `exec grep -E|-F "$@"` (red team, round 23b).
  egrep: () => ["grep"],
  fgrep: () => ["grep"],
  // `git difftool --tool-help` sources git-mergetool--lib, a sh script (red team, round 23b; strace, git 2.39).
  git: (args) => (args[0] === "difftool" && args[1] === "--tool-help" ? DIFFTOOL_HELP_HELPERS : []),
};

/** The programs `unit` runs by a bare name besides its own (PATH_HELPERS). */
function helpersOf(unit: ExecUnit): readonly string[] {
  const head = unit.argv[0];
  if (head === undefined || unit.words.some((w) => w.value === null)) return [];
  return Object.hasOwn(PATH_HELPERS, basename(head))
    ? (PATH_HELPERS[basename(head)]?.(unit.argv.slice(1)) ?? [])
    : [];
}

/**
 * The PATH lookup of `unit`'s program, once per name, directory and earlier writes. `written`: the paths
 * the command's earlier units write (absolute), `before`: the exec unit just before it.
 */
export function programTargets(
  unit: ExecUnit,
  before: ExecUnit | undefined,
  callCwd: string,
  home: string | null,
  written: readonly string[],
  out: readonly DiskTarget[],
): DiskTarget[] {
  const names = [...(looksUp(unit, before) ? [unit.argv[0] as string] : []), ...helpersOf(unit)];
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  const same = (name: string) => (t: DiskTarget) =>
    t.kind === "program" && t.name === name && t.dir === dir && t.written.length === written.length;
  return names
    .filter((name) => !out.some(same(name)))
    .map((name) => ({ kind: "program", name, dir, written: [...written], shown: unit.text }));
}
