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
  if (!looksUp(unit, before)) return [];
  const name = unit.argv[0] as string;
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  const same = (t: DiskTarget) =>
    t.kind === "program" && t.name === name && t.dir === dir && t.written.length === written.length;
  if (out.some(same)) return [];
  return [{ kind: "program", name, dir, written: [...written], shown: unit.text }];
}
