// The programs a shell start-up file RUNS by path (red team, round 18, r18-04: ~/.bashrc's
// `eval "$(~/code/ws/tools/y.sh init bash)"`, a plain `~/code/ws/tools/x.sh` line, `[ -x F ] && F`): each
// runs at every new shell, as a sourced file does. The command words come from bash's grammar by way of
// shell-sources.ts (its variables followed); wrappers (`exec`, `command`, `env`, `nohup`) and interpreters
// (`python3 F`, `bash F`) are unwrapped with the judge's own tables. Pure.
import type { PathPart, Reference } from "./path-references.ts";
import { basename } from "./paths.ts";
import { interpreterScript } from "./shell/interpreters.ts";
import { type Arg, SHELLS, unwrap } from "./shell/wrappers.ts";

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

/**
 * The files a command runs: its program word (through wrappers), the script an interpreter is given,
 * and, for a command given as a string (`eval 'F init'`, `bash -c 'F'`, a `trap` handler), what `script`
 * reads in it.
 */
export function commandRuns(
  words: readonly WordValues[],
  script: (text: string) => Reference[],
): Reference[] {
  const valuesOf = new Map<Arg, WordValues>();
  let argv = words.map((w) => {
    const a = asArg(w);
    valuesOf.set(a, w);
    return a;
  });
  const out: Reference[] = [];
  const runs = (a: Arg | null | undefined) => {
    if (a !== null && a !== undefined) out.push(...ranPaths(valuesOf.get(a) ?? [[]]));
  };
  // `trap 'F' EXIT`: the handler is a command string the shell runs later (at exit, on a signal).
  const handler = argv[0]?.value === "trap" ? argv[1]?.value : null;
  if (handler) out.push(...script(handler));
  for (const line of aliasScripts(argv)) out.push(...script(line));
  for (let depth = 0; depth < MAX_UNWRAP && argv.length > 0; depth++) {
    runs(argv[0]);
    runs(interpreterScript(argv) ?? shellFile(argv));
    const inner = unwrap(argv);
    if (inner.kind === "script" && inner.script !== null) out.push(...script(inner.script));
    if (inner.kind !== "inner") break;
    argv = inner.argv;
  }
  return out;
}

/**
 * What bash runs at every prompt: PROMPT_COMMAND's value as the file leaves it (a part only known at run
 * time, such as an earlier `$PROMPT_COMMAND`, read as a blank).
 */
export function promptRuns(
  values: WordValues | undefined,
  script: (text: string) => Reference[],
): Reference[] {
  return (values ?? []).flatMap((parts) =>
    script(parts.map((p) => (p.type === "any" ? " " : p.value)).join("")),
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
