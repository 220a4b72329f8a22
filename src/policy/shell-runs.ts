// The programs a shell start-up file RUNS by path (red team, round 18, r18-04: ~/.bashrc's
// `eval "$(~/code/ws/tools/y.sh init bash)"`, a plain `~/code/ws/tools/x.sh` line, `[ -x F ] && F`): each
// runs at every new shell, as a sourced file does. The command words come from bash's grammar by way of
// shell-sources.ts (its variables followed); wrappers (`exec`, `command`, `env`, `nohup`) and interpreters
// (`python3 F`, `bash F`) are unwrapped with the judge's own tables; at each depth, what it sources and the build
// files a runner given a directory runs (build-runs.ts; round 19). Pure.
import { builderRuns, runsFiles, runsWhereTyped } from "./build-runs.ts";
import type { PathPart, Reference } from "./path-references.ts";
import { basename } from "./paths.ts";
import { interpreterScript } from "./shell/interpreters.ts";
import { type Arg, SHELLS, type Unwrapped, unwrap } from "./shell/wrappers.ts";

/** A word's possible values, each a path pattern (shell-sources.ts's reading of it). */
export type WordValues = PathPart[][];

const HOW = "runs it in every shell";
/** `exec nohup env X=1 F`: wrappers inside wrappers, this deep. */
const MAX_UNWRAP = 4;

/** The word as the wrapper tables read it: its text when it has one literal value. */
function asArg(values: WordValues): Arg {
  const only = values.length === 1 ? values[0] : undefined;
  const value = only?.every((p) => p.type === "lit") ? only.map((p) => p.value).join("") : null;
  return { value, raw: value ?? "", glob: false, tilde: false };
}

/** A ran file that is a shell script: what it sources and runs runs at every shell too, so it is read as well. */
const SHELL_SCRIPT = /\.(sh|bash|zsh|ksh)$/;

/**
 * A ran word's paths: those written from the root or home (`/…`, `~/…`, `$HOME/…`, already made absolute),
 * and a relative one with a slash (`./tools/x.sh` after `cd ~/proj`, or in whatever directory the shell
 * starts: round 19, r19-01) as that path below any directory. A bare name is PATH's to find, and a head
 * only known at run time (`$cmd`, `$ZSH/x`) names no file the user chose here.
 */
function ranPaths(values: WordValues): Reference[] {
  return values.flatMap((parts): Reference[] => {
    const head = parts[0];
    const tail = parts[parts.length - 1];
    if (head?.type !== "lit") return [];
    const script = tail?.type === "lit" && SHELL_SCRIPT.test(tail.value);
    const follow = script ? { follow: "shell" as const } : {};
    if (/^\/[^/]/.test(head.value)) return [{ parts, below: false, how: HOW, ...follow }];
    const relative = head.value.replace(/^(\.\.?\/)+/, "");
    if (!head.value.includes("/") || head.value.startsWith("/") || relative === "") return [];
    const below: PathPart[] = [{ type: "any" }, { type: "lit", value: `/${relative}` }, ...parts.slice(1)];
    return [{ parts: below, below: false, how: HOW }];
  });
}

/** `alias g='~/proj/tools/g.sh'`: each value is a command line bash runs when the alias is typed (r19-02). */
function aliasScripts(argv: readonly Arg[]): string[] {
  if (argv[0]?.value !== "alias") return [];
  return argv.slice(1).flatMap((a) => {
    const at = a.value?.indexOf("=") ?? -1;
    return a.value !== null && at > 0 ? [a.value.slice(at + 1)] : [];
  });
}

/** Shell options whose value is the next word (`bash -o vi F`, `bash --rcfile R F`). */
const SHELL_VALUES = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"]);

/** The script file a shell is given (`bash F`, `sh -e F`); none with `-c` (a string, unwrapped instead). */
function shellFile(argv: readonly Arg[]): Arg | null {
  if (!SHELLS.has(basename(argv[0]?.value ?? ""))) return null;
  for (let i = 1; i < argv.length; i++) {
    const v = (argv[i] as Arg).value;
    if (v === null || v === "-" || /^-[A-Za-z]*c/.test(v)) return null;
    if (SHELL_VALUES.has(v)) i++;
    else if (v === "--") return argv[i + 1] ?? null;
    else if (!/^[-+]/.test(v)) return argv[i] as Arg;
  }
  return null;
}

/** How a command's string and sourced words are read: shell-sources.ts's reading, with its variables. */
export interface ShellReader {
  /** What a command string (`eval 'F'`, `bash -c 'F'`, a `trap` handler, an alias's value) runs. */
  script(text: string): Reference[];
  /** What a sourced word names (`source F`, `. F`). */
  sourced(values: WordValues): Reference[];
}

/** A command's words as the wrapper tables read them, each kept beside its possible values. */
export interface Argv {
  argv: Arg[];
  valuesOf(a: Arg | null | undefined): WordValues;
  /** What the wrapper tables make of it (shell/wrappers.ts). */
  inner: Unwrapped;
}

const SOURCING = new Set(["source", "."]);

/**
 * The command at each depth of its wrappers: `command source F`, `builtin . F`, `exec nohup env X=1 F` are
 * read as `source F`, `. F` and `F` in turn (round 19, r19-23), as bash runs them.
 */
export function wrapperDepths(words: readonly WordValues[]): Argv[] {
  const values = new Map<Arg, WordValues>();
  let argv = words.map((w) => {
    const a = asArg(w);
    values.set(a, w);
    return a;
  });
  const valuesOf = (a: Arg | null | undefined) => (a ? (values.get(a) ?? [[]]) : []);
  const out: Argv[] = [];
  for (let depth = 0; depth < MAX_UNWRAP && argv.length > 0; depth++) {
    const inner = unwrap(argv);
    out.push({ argv, valuesOf, inner });
    if (inner.kind !== "inner") break;
    argv = inner.argv;
  }
  return out;
}

/** The file `source` or `.` reads: its first operand, after an end-of-options `--` (round 19, r19-20). */
export function sourcedOperand(argv: readonly Arg[]): Arg | null {
  if (!SOURCING.has(argv[0]?.value ?? "")) return null;
  const first = argv[1];
  return (first?.value === "--" ? argv[2] : first) ?? null;
}

/**
 * The files a command runs: its program word (through wrappers), the script an interpreter is given, the
 * file it sources, the build files a runner given a directory runs (build-runs.ts), and, for a command
 * given as a string (`eval 'F init'`, `bash -c 'F'`, a `trap` handler), what the reader finds in it.
 */
export function commandRuns(words: readonly WordValues[], reader: ShellReader): Reference[] {
  const depths = wrapperDepths(words);
  const out: Reference[] = [];
  const first = depths[0]?.argv ?? [];
  // `trap 'F' EXIT`: the handler is a command string the shell runs later (at exit, on a signal).
  const handler = first[0]?.value === "trap" ? first[1]?.value : null;
  if (handler) out.push(...reader.script(handler));
  for (const line of aliasScripts(first)) out.push(...reader.script(line).filter((r) => !runsWhereTyped(r)));
  for (const { argv, valuesOf, inner } of depths) {
    const source = sourcedOperand(argv);
    if (source !== null) out.push(...reader.sourced(valuesOf(source)));
    else out.push(...ranPaths(valuesOf(argv[0])));
    out.push(...ranPaths(valuesOf(interpreterScript(argv) ?? shellFile(argv))));
    out.push(...builderRuns(argv, valuesOf));
    if (inner.kind === "script" && inner.script !== null) out.push(...reader.script(inner.script));
    // `xargs -a LIST sh`: the names LIST holds are run; LIST is what decides them (the named files are not known).
    if (inner.kind === "inner" && runsFiles(inner.argv[0]?.value ?? ""))
      for (const list of inner.reads ?? []) out.push(...ranPaths(valuesOf(list)));
  }
  return out;
}

/**
 * What bash runs at every prompt: PROMPT_COMMAND's value as the file leaves it (a part only known at run
 * time, such as an earlier `$PROMPT_COMMAND`, read as a blank).
 */
export function promptRuns(values: WordValues | undefined, reader: ShellReader): Reference[] {
  return (values ?? []).flatMap((parts) =>
    reader.script(parts.map((p) => (p.type === "any" ? " " : p.value)).join("")),
  );
}

/**
 * A path run as a command in a line bash's grammar cannot read (zsh's, fish's): at the line's start or
 * after `;`, `&&`, `|`, `(`, `$(`, a backtick, `eval`, `exec`, `command`, `then`/`do`/`and`/`or`.
 */
const RUN_IN_LINE =
  /(?:^|[;&|({`]|\$\(|\b(?:then|do|else|and|or|eval|exec|command|nohup)\s)\s*["']?((?:~|\$HOME|\$\{HOME\})\/[^\s;&|)"'`]+|\/[^\s;&|)"'`/][^\s;&|)"'`]*)/g;

/** The paths a line the grammar cannot read runs as commands. */
export function runsInLine(line: string, home: string): Reference[] {
  return [...line.matchAll(RUN_IN_LINE)].flatMap((m) => {
    const path = (m[1] as string).replace(/^(~|\$HOME|\$\{HOME\})\//, `${home}/`);
    return /[$*?[]/.test(path) ? [] : [{ parts: [{ type: "lit", value: path }], below: false, how: HOW }];
  });
}
