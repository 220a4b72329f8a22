// One simple command to units: the command itself (with its words, prefixes and concerns), the
// files it reads and writes, and whatever it runs in turn (wrapped commands, script strings,
// trap and callback strings). Builtins that move the working directory update the shell state.
import { basename } from "../paths.ts";
import { isDenylistedPath } from "../secret-paths.ts";
import {
  CWD_UNKNOWN_AFTER,
  ESCAPING_BUILTINS,
  globOptionSet,
  NAME_BUILTINS,
  NAME_TESTS,
  nameWords,
  PLAIN_NAME,
} from "./builtins.ts";
import { type CwdSet, changeDir, type Move, moveTo, single } from "./cwd.ts";
import { type Dialect, shellDialect, wrapperDialect } from "./dialect.ts";
import { dangerousVariable } from "./env-vars.ts";
import type { OpenedFd } from "./exec-fds.ts";
import { FILE_PROGRAMS } from "./file-programs.ts";
import { execOverFound, type FoundPaths, foundWalk, xargsOverFound } from "./found-paths.ts";
import { grammarFor } from "./grammar/index.ts";
import { placedByShell } from "./grammar/judge.ts";
import type { NotUnderstood } from "./grammar/spec.ts";
import { GRAMMARS } from "./grammars.ts";
import { INTERPRETERS, interpreterScript, sshSession } from "./interpreters.ts";
import { lookup } from "./lookup.ts";
import type { LoopBindings } from "./loop-vars.ts";
import { type FileUse, judgeProgram } from "./programs.ts";
import { RISKY_OPERANDS, RISKY_OPTIONS } from "./risky-options.ts";
import { outsideProject, scriptConcerns, shellScriptFile, typescriptWrites } from "./script-runs.ts";
import { secretOutput, unknownExpansions } from "./secret-output.ts";
import { shellOptionConcern } from "./shell-options.ts";
import type { StdFds } from "./std-fds.ts";
import type { Concern, Effect, ExecUnit, PathUnit, ShellPrefix, ShellUnit } from "./units.ts";
import { unquotedGlobConcerns } from "./unquoted-globs.ts";
import { type Arg, otherRoot, SHELLS, unwrap, WRAPPERS, wrapperOf } from "./wrappers.ts";

/** The state of one shell process as the script runs. */
export interface Shell {
  cwd: CwdSet;
  /** pushd's directory stack. */
  stack: CwdSet[];
  /**
   * Set by a `cd` or `pushd` for the event right after it: where the shell is if that move succeeded
   * (`cd sub && npm test` runs `npm test` in `sub` only). Cleared by every other event.
   */
  cdSucceeded?: CwdSet;
  /** Variables the script itself set before this point (their values come from it, not the environment). */
  assigned: Set<string>;
  /** Loop variables whose every value is known here (loop-vars.ts), inside their loop. */
  bound?: LoopBindings;
  /** The script's text holds a glob character somewhere (so a glob option changes what it means). */
  globs?: true;
  /** Descriptors the script's opening `exec` opened on a file (exec-fds.ts), by number. */
  fds?: ReadonlyMap<string, OpenedFd>;
  /** Standard descriptors pointed at a file here (std-fds.ts); absent, all are the agent's own. */
  std?: StdFds;
}

export interface Run {
  push(unit: ShellUnit): void;
  /**
   * Analyses a script string run by this command: in `shell` (eval) or a copy of it (bash -c), read in
   * the language of the shell that runs it (`sh -c` is dash's, see dialect.ts).
   */
  script(src: string, shell: Shell, depth: number, dialect: Dialect): void;
  /** Whether a script string may move the shell (a cd, pushd, popd, source, eval … in it; unreadable counts). */
  movesDir(src: string): boolean;
  depth: number;
  /** The language of the script this command is in (eval, trap and callbacks run their strings in it). */
  dialect: Dialect;
  /** The wrapper whose inner command is being analysed (see `ExecUnit.via`). */
  via?: string;
}

const MAX_DEPTH = 8;
/** Wrappers that run the command as someone else or somewhere else: they count as running anything. */
const PRIVILEGED = new Set([
  "sudo",
  "doas",
  "pkexec",
  "run0",
  "su",
  "runuser",
  "chroot",
  "nsenter",
  "unshare",
  "sg",
  "newgrp",
  "setpriv",
  "gosu",
  "su-exec",
  "systemd-run",
]);

/** Every program some table knows; any other is judged by its name and words alone (the fast path). */
const KNOWN: ReadonlySet<string> = new Set([
  ...Object.keys(WRAPPERS).map((k) => k.split(" ")[0] as string),
  ...SHELLS,
  ...Object.keys(FILE_PROGRAMS),
  ...Object.keys(RISKY_OPTIONS),
  ...Object.keys(RISKY_OPERANDS),
  ...Object.keys(INTERPRETERS),
  ...Object.keys(GRAMMARS),
  ...Object.keys(NAME_BUILTINS),
  ...Object.keys(ESCAPING_BUILTINS),
  ...CWD_UNKNOWN_AFTER,
  ...["git", "ssh", "awk", "gawk", "mawk", "nawk", "busybox-awk", "gsed", "mapfile", "readarray", "trap"],
]);
const VERSIONED = /^(python|pypy|ruby|perl|php|lua|node)[0-9.]+$/;

function known(name: string): boolean {
  return KNOWN.has(name) || VERSIONED.test(name) || grammarFor(name) !== undefined;
}

function noGrammar(head: Arg, name: string): NotUnderstood {
  return { word: head.raw, reason: `${name} has no grammar here, so its options and operands are not known` };
}

/**
 * The shell a `bash -c`/`sh -c` script (or one on standard input) starts in: a new process, where a loop
 * variable or opening assignment of this script is unset unless the environment exported it (`"$f"` is
 * then empty, and an unquoted `$f` no word at all: `rg KEY $f` searches the whole directory).
 */
function childShell(shell: Shell): Shell {
  const copy = copyShell(shell);
  delete copy.bound;
  return copy;
}

export function copyShell(shell: Shell): Shell {
  const copy: Shell = { cwd: shell.cwd, stack: [...shell.stack], assigned: new Set(shell.assigned) };
  if (shell.bound !== undefined) copy.bound = shell.bound;
  if (shell.globs) copy.globs = true;
  if (shell.fds !== undefined) copy.fds = shell.fds;
  if (shell.std !== undefined) copy.std = shell.std;
  return copy;
}

function textOf(argv: readonly Arg[]): string {
  return argv.map((a) => (a.value === null || a.pipe ? a.raw : a.value)).join(" ");
}

/** Concerns of the variables a command gets: a rule allows them only if it names them. */
export function prefixConcerns(prefixes: readonly ShellPrefix[]): Concern[] {
  const out: Concern[] = [];
  for (const p of prefixes) {
    const why = dangerousVariable(p.name, p.value);
    if (why !== null) out.push({ mention: p.name, reason: why });
  }
  return out;
}

export function prefixOf(a: Arg): ShellPrefix {
  const v = a.value ?? a.raw;
  const eq = v.indexOf("=");
  const name = v.slice(0, eq).replace(/\+$/, "");
  return { name, value: a.value === null ? null : v.slice(eq + 1), raw: a.raw };
}

/** Directories whose programs are the system's: `/usr/bin/ls` is `ls`, `./ls` is not. */
const SYSTEM_BIN = /^\/(usr\/(local\/)?)?s?bin\/[^/]+$|^\/opt\/homebrew\/s?bin\/[^/]+$/;

/**
 * The name a rule's `program` sees: the base name of a command found on PATH or in a system
 * directory, and any other path as written (`./ls`, `/tmp/ls`, `~/bin/ls` run a file that only
 * shares the name).
 */
function programName(head: string): string {
  if (!head.includes("/")) return head;
  return SYSTEM_BIN.test(head) ? basename(head) : head;
}

export function execUnit(
  argv: readonly Arg[],
  fields: {
    prefixes: readonly ShellPrefix[];
    cwd: CwdSet;
    dynamic: string | null;
    effect: Effect;
    concerns: readonly Concern[];
  },
): ExecUnit {
  const head = argv[0]?.value;
  const several = fields.cwd !== null && fields.cwd.length > 1 ? { dirs: fields.cwd } : {};
  return {
    kind: "exec",
    argv: argv.map((a) => a.value ?? a.raw),
    text: textOf(argv),
    dynamic: fields.dynamic,
    // An argument is already a word as the unit shows it (value, raw, glob, tilde).
    words: argv.slice(),
    prefixes: [...fields.prefixes],
    cwd: single(fields.cwd),
    ...several,
    program: head === null || head === undefined ? "" : programName(head),
    effect: fields.effect,
    concerns: [...fields.concerns],
  };
}

/** How the names a tracked producer prints reach the command (found-paths.ts). */
function trackedNames(found: FoundPaths): NonNullable<PathUnit["tracked"]> {
  return { nul: found.nul, ...(found.split ? { split: true } : {}), ...(found.top ? { top: true } : {}) };
}

/** A read or write of `use` in every directory the shell may be in. */
function pathUnits(kind: "read" | "write", use: FileUse, cwd: CwdSet, run: Run): void {
  // A pipe from a process substitution is not a file; the command behind it is judged itself.
  if (use.arg.pipe) return;
  const dirs = cwd === null ? [null] : cwd;
  const found = use.arg.found;
  if (found !== undefined) {
    // The paths a `find` upstream prints: every file it could print, read (found-paths.ts).
    const walk = foundWalk(found);
    for (const root of found.roots)
      for (const dir of dirs)
        run.push({
          kind,
          path: kind === "read" ? root.value : null,
          text: use.arg.raw,
          cwd: dir,
          tilde: root.tilde,
          glob: false,
          recursive: true,
          operand: true,
          walk,
          ...(found.tracked ? { tracked: trackedNames(found) } : {}),
        });
    return;
  }
  for (const dir of dirs) {
    run.push({
      kind,
      path: use.arg.value,
      text: use.arg.raw,
      cwd: dir,
      tilde: use.arg.tilde,
      glob: use.arg.glob,
      ...(use.arg.pathspec === true ? { pathspec: true as const } : {}),
      recursive: use.recursive,
      ...(use.entries === true ? { entries: true as const } : {}),
      operand: true,
    });
  }
}

/** Variable names a builtin assigns or reads by name: evaluated names are code, some names are dangerous. */
function nameChecks(name: string, argv: readonly Arg[]): { dynamic: string | null; concerns: Concern[] } {
  const spec = lookup(NAME_BUILTINS, name);
  const out: { dynamic: string | null; concerns: Concern[] } = { dynamic: null, concerns: [] };
  const names: Arg[] = [];
  if (name === "test" || name === "[") {
    argv.forEach((a, i) => {
      if (a.value !== null && NAME_TESTS.has(a.value) && argv[i + 1]) names.push(argv[i + 1] as Arg);
    });
  }
  const words = spec?.arithmetic ? null : nameWords(argv, name);
  if (spec?.arithmetic) {
    // `let` reads no options: every word but a leading `--` is an expression.
    const operands = argv.slice(argv[1]?.value === "--" ? 2 : 1);
    for (const o of operands)
      if (!/^[0-9]+$/.test(o.value ?? ""))
        out.dynamic ??= `\`${name} ${o.raw}\` evaluates its argument as code`;
  } else if (spec && words) {
    if (words.unread !== null && words.operands.length > 0) out.dynamic ??= `${name}: ${words.unread}`;
    if (spec.declaration)
      for (const o of words.options)
        if (/^[inaA]$/.test(o.letter))
          out.dynamic ??= `\`${name} -${o.letter}\` makes later assignments to the name code (arithmetic, references or arrays)`;
    names.push(...words.names);
  }
  for (const n of names) {
    const v = n.value;
    const plain =
      v === null ? (n.declares ?? null) : spec?.declaration ? (v.split("=")[0] ?? "").replace(/\+$/, "") : v;
    if (plain === null || !PLAIN_NAME.test(plain)) {
      out.dynamic ??= `the variable name ${n.raw} of ${name} is evaluated (a subscript in it runs as code)`;
      continue;
    }
    const base = plain.replace(/\[.*$/, "");
    const value = v?.includes("=") ? v.slice(v.indexOf("=") + 1) : null;
    const why = dangerousVariable(base, value);
    if (why !== null) out.concerns.push({ mention: base, reason: `${name} sets ${why}` });
  }
  return out;
}

/** mapfile/readarray -C CALLBACK: the callback string is run like eval. */
function callbackOf(argv: readonly Arg[]): Arg | null | undefined {
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i]?.value;
    if (v === "-C") return argv[i + 1] ?? null;
    if (v?.startsWith("-C")) return { ...(argv[i] as Arg), value: v.slice(2) };
  }
  return undefined;
}

/** trap 'CMD' SIGNALS: the command string, or undefined when trap only lists or resets. */
function trapCommand(argv: readonly Arg[]): Arg | undefined {
  let i = 1;
  if (argv[i]?.value === "--") i++;
  const first = argv[i];
  if (first === undefined || first.value === "-" || /^-[lp]$/.test(first.value ?? "")) return undefined;
  // `trap 1 2` (a number first) resets those signals.
  if (first.value !== null && /^\d+$/.test(first.value)) return undefined;
  return argv.length > i + 1 ? first : undefined;
}

function moveDir(name: string, argv: readonly Arg[], shell: Shell): void {
  // Options come first; `--` ends them and is not a directory (`cd --` goes home).
  let k = 1;
  let how: Move = "cd";
  for (; k < argv.length && /^-[LPe@]+$/.test(argv[k]?.value ?? "x"); k++)
    if ((argv[k]?.value ?? "").includes("P")) how = "cd -P";
  if (argv[k]?.value === "--") k++;
  const operands = argv.slice(k);
  const first = operands[0];
  if (name === "cd") {
    shell.cdSucceeded = operands.length <= 1 ? moveTo(shell.cwd, first ?? null, how) : null;
    shell.cwd = changeDir(shell.cwd, first ?? null, how);
  } else if (name === "pushd") {
    if (first === undefined || /^[+-]\d+$/.test(first.value ?? "") || first.value === "-n") shell.cwd = null;
    else {
      shell.stack.push(shell.cwd);
      shell.cdSucceeded = operands.length === 1 ? moveTo(shell.cwd, first, how) : null;
      shell.cwd = changeDir(shell.cwd, first, how);
    }
  } else if (name === "popd") {
    const top = shell.stack.pop();
    // popd may fail (empty stack) or take +N/-N: keep every possibility.
    shell.cwd = top === undefined || operands.length > 0 ? null : mergeCwd(top, shell.cwd);
  }
}

/** Where the shell is, and what pushd's stack holds, are no longer known. */
function unknownDir(shell: Shell): void {
  shell.cwd = null;
  shell.stack = shell.stack.map(() => null);
}

function mergeCwd(a: CwdSet, b: CwdSet): CwdSet {
  if (a === null || b === null) return null;
  return [...new Set([...a, ...b])];
}

export interface CommandInput {
  argv: Arg[];
  prefixes: ShellPrefix[];
  /** A static script on standard input (a here-document or here-string), if any. */
  stdin: string | null;
  shell: Shell;
  /** The command gets extra, unknown arguments (it runs under xargs). */
  appends?: boolean;
  /** Its standard input is what a `find` prints (`find … | xargs CMD`). */
  piped?: FoundPaths;
  /** What its redirections raise (a here-string expanding a secret variable). */
  concerns?: readonly Concern[];
  /** The file its standard input reads (`< FILE`, `cat FILE |`). */
  stdinFile?: Arg;
}

export function simpleCommand(input: CommandInput, run: Run): void {
  const { prefixes, stdin, shell } = input;
  const argv = input.appends
    ? [...input.argv, { value: null, raw: "<input>", glob: false, tilde: false }]
    : input.argv;
  const head = argv[0];
  if (!head) return;
  const baseConcerns = prefixConcerns(prefixes);
  if (input.concerns) baseConcerns.push(...input.concerns);
  for (const p of prefixes) baseConcerns.push(...unknownExpansions(p.raw, shell.assigned, `\`${p.raw}\``));
  baseConcerns.push(...unquotedGlobConcerns(argv, shell.assigned));
  if (head.value !== null && !head.glob)
    baseConcerns.push(...secretOutput(basename(head.value), argv, shell.assigned));
  if (head.value === null || head.glob) {
    run.push(
      execUnit(argv, {
        prefixes,
        cwd: shell.cwd,
        dynamic: `command name ${head.raw} is not static`,
        effect: "run",
        concerns: baseConcerns,
      }),
    );
    return;
  }
  const name = basename(head.value);
  if (!known(name)) {
    // No table knows it: no wrapped command, file operand or risky option to find. A word only
    // known at run time could still be an option that writes or runs.
    const dyn = argv.find((a, i) => i > 0 && (a.value === null || (a.glob && /^[*?[]/.test(a.value))));
    const fields = {
      prefixes,
      cwd: shell.cwd,
      dynamic: dyn
        ? `argument ${dyn.raw} of ${name} is not static (it could be an option that writes or runs)`
        : null,
      effect: "run" as const,
      concerns: baseConcerns,
    };
    const unknown = execUnit(argv, fields);
    unknown.notUnderstood = noGrammar(head, name);
    if (run.via !== undefined) unknown.via = run.via;
    run.push(unknown);
    if (head.value.includes("/"))
      run.push({
        ...execUnit([{ ...head, value: name, raw: name }, ...argv.slice(1)], fields),
        notUnderstood: unknown.notUnderstood,
      });
    return;
  }
  const wrapper = wrapperOf(argv);
  const unwrapped = run.depth >= MAX_DEPTH ? null : unwrap(argv);
  const innerStart =
    unwrapped?.kind === "inner" ? argv.length - unwrapped.argv.length + (input.appends ? 1 : 0) : argv.length;
  // A wrapper's own words are judged as its options; the wrapped command is judged on its own.
  const own = wrapper !== null || SHELLS.has(name) ? argv.slice(0, Math.max(1, innerStart)) : argv;
  const judged =
    wrapper !== null || SHELLS.has(name)
      ? judgeProgram(own.filter((a) => a.value !== null))
      : judgeProgram(argv);
  const concerns: Concern[] = [...baseConcerns, ...judged.concerns];
  let dynamic = wrapper !== null || SHELLS.has(name) ? null : judged.dynamic;
  let effect: Effect = wrapper !== null ? (PRIVILEGED.has(name) ? "run" : "read") : judged.effect;
  if (SHELLS.has(name)) effect = unwrapped?.kind === "info" ? "read" : "run";
  // `find … -exec CMD {} +`: CMD reads what find finds, as after `| xargs -0` (found-paths.ts); find only walks.
  const overExec = name === "find" && wrapper === null ? execOverFound(argv) : null;
  if (overExec !== null) {
    judged.inner = [overExec];
    effect = "read";
  }

  const names = nameChecks(name, argv);
  dynamic ??= names.dynamic;
  concerns.push(...names.concerns);
  const escaping = lookup(ESCAPING_BUILTINS, name)?.(argv) ?? null;
  if (escaping !== null) concerns.push({ mention: null, reason: escaping });
  const globOption = (name === "shopt" || name === "set") && input.shell.globs ? globOptionSet(argv) : null;
  if (globOption !== null) concerns.push({ mention: null, reason: globOption });
  const shellOption = SHELLS.has(name) && unwrapped?.kind !== "info" ? shellOptionConcern(argv) : null;
  if (shellOption !== null) concerns.push(shellOption);

  const ssh = name === "ssh" ? sshSession(argv) : null;
  if (ssh?.interactive) concerns.push({ mention: "interactive", reason: ssh.interactive });
  if (ssh?.remote === null) dynamic ??= "the remote command is not static";
  if (unwrapped?.kind === "shell")
    concerns.push({
      mention: "interactive",
      reason: `${name} starts an interactive shell: what is typed into it later is never judged`,
    });
  if (unwrapped?.kind === "stdin-shell" && stdin === null)
    dynamic ??= "the shell runs a program read from standard input";
  if (unwrapped?.kind === "script" && unwrapped.script === null)
    dynamic ??= "the script string is not static";
  if (unwrapped?.kind === "script")
    for (const w of unwrapped.writes ?? []) judged.writes.push({ arg: w, recursive: false });
  if (unwrapped?.kind === "inner") {
    for (const a of unwrapped.assigns) {
      const why = dangerousVariable(prefixOf(a).name, prefixOf(a).value);
      if (why !== null) concerns.push({ mention: prefixOf(a).name, reason: why });
    }
    for (const r of unwrapped.reads ?? []) judged.reads.push({ arg: r, recursive: false });
    for (const w of unwrapped.writes ?? []) judged.writes.push({ arg: w, recursive: false });
    for (const u of unwrapped.unsets ?? []) {
      const why =
        u.value === null ? `${name} removes a variable that is not static` : dangerousVariable(u.value);
      if (why !== null) concerns.push({ mention: u.value, reason: `removing it: ${why}` });
    }
  }

  // The script file a shell or an interpreter runs is read by it (and printed by `sh -v`, in tracebacks),
  // and its own arguments are the script's to read (quopri.py FILE prints it).
  const script = SHELLS.has(name) ? shellScriptFile(argv) : interpreterScript(argv);
  if (script !== null) {
    concerns.push(...scriptConcerns(name, script, argv, shell.cwd));
    // The script is a file it reads: judged as any read, so the disk look sees a link out of the workspace.
    if (script.value !== null) judged.reads.push({ arg: script, recursive: false });
  }
  // A file the program loads and runs (`node -r FILE`, `--import`, `--loader`) is run as its script is,
  // and read by it: judged as a read (on the disk too: a link out of the workspace), a secret there is
  // shown, and one outside the project is code the engine has not seen (red team, round 4).
  for (const e of judged.effects?.paths ?? []) {
    if (e.access !== "exec" || e.arg === script) continue;
    if (e.arg.value !== null && isDenylistedPath(e.arg.value))
      concerns.push({
        mention: "sensitive",
        reason: `\`${e.arg.raw}\` is a secret ${name} loads and runs: it reads it`,
      });
    else if (
      e.arg.value === null ||
      (/\//.test(e.arg.value) && outsideProject(e.arg.value, e.arg.tilde, shell.cwd))
    )
      concerns.push({
        mention: null,
        reason: `\`${e.arg.raw}\` is code outside the project that ${name} loads and runs`,
      });
    if (e.arg.value !== null && /\//.test(e.arg.value)) judged.reads.push({ arg: e.arg, recursive: false });
  }
  if (name === "script")
    for (const w of typescriptWrites(argv)) judged.writes.push({ arg: w, recursive: false });
  // `for f in src/*.js; do cat $f; done`: a match with a blank (`src/x .env`) is split into other names.
  const files = [...judged.reads, ...judged.writes, ...(judged.effects?.paths ?? [])];
  const split = files.find((u) => u.arg.split === true);
  if (split !== undefined)
    dynamic ??= `\`${split.arg.raw}\` is unquoted: bash splits each name it stands for at blanks, and the pieces are other files`;
  const cwd = shell.cwd;
  const exec = execUnit(argv, { prefixes, cwd, dynamic, effect, concerns });
  // Understood: its grammar placed every word, or the shell analysis itself places them (builtins,
  // wrappers and shells, whose inner commands are units of their own).
  const placed = wrapper !== null || SHELLS.has(name) || placedByShell(name);
  const root = wrapper !== null ? otherRoot(own) : null;
  const notUnderstood =
    root !== null
      ? {
          word: root.raw,
          reason: `${name} runs the command in another filesystem root, where its program and paths are that tree's, not the ones judged`,
        }
      : judged.understood !== undefined
        ? judged.understood
        : placed
          ? null
          : noGrammar(head, name);
  if (notUnderstood !== null) exec.notUnderstood = notUnderstood;
  if (judged.effects !== undefined) exec.effects = judged.effects;
  if (input.stdinFile !== undefined) exec.stdinFile = input.stdinFile;
  if (run.via !== undefined) exec.via = run.via;
  run.push(exec);
  if (head.value.includes("/")) {
    // /bin/rm must meet the rules written for rm; the full path is judged as well.
    const short = [{ ...head, value: name, raw: name }, ...argv.slice(1)];
    const again = execUnit(short, { prefixes, cwd, dynamic, effect, concerns });
    if (notUnderstood !== null) again.notUnderstood = notUnderstood;
    if (judged.effects !== undefined) again.effects = judged.effects;
    run.push(again);
  }

  // Files it reads and writes, in every directory it may run in (git -C moves it).
  let fileCwd = cwd;
  // A program's own chdir() is physical: `git -C link/..` leaves through the link's target.
  for (const dir of judged.chdir) fileCwd = moveTo(fileCwd, dir, "chdir");
  for (const r of judged.reads) pathUnits("read", r, fileCwd, run);
  for (const w of judged.writes) pathUnits("write", w, fileCwd, run);

  if (run.depth >= MAX_DEPTH) {
    run.push({ kind: "unparsable", text: exec.text, reason: "commands nested too deeply" });
    return;
  }
  const child: Run = { ...run, depth: run.depth + 1, via: exec.text };
  const innerShell = (): Shell =>
    judged.effects?.innerElsewhere ? { ...copyShell(shell), cwd: null } : copyShell(shell);
  for (const inner of judged.inner)
    simpleCommand({ argv: inner, prefixes, stdin: null, shell: innerShell() }, child);

  // The remote command runs on another machine, in a directory not known here.
  if (typeof ssh?.remote === "string")
    run.script(ssh.remote, { cwd: null, stack: [], assigned: new Set() }, run.depth + 1, {
      other: "ssh runs the remote command in the remote user's login shell, whose language is not known here",
    });

  // Builtins that run strings later, or move the shell.
  if (name === "trap") {
    const cmd = trapCommand(argv);
    if (cmd?.value === null) exec.dynamic ??= "the trap command is not static";
    // It runs later, from wherever the script then is.
    else if (cmd?.value) {
      run.script(cmd.value, { cwd: null, stack: [], assigned: new Set() }, run.depth + 1, run.dialect);
      // A DEBUG or ERR handler runs in this shell between later commands: a `cd` in it moves every one
      // after it (red team, round 10: `trap 'cd ~/.config/gh' DEBUG; cat hosts.yml`).
      if (run.movesDir(cmd.value)) unknownDir(shell);
    }
  }
  if (name === "mapfile" || name === "readarray") {
    const cb = callbackOf(argv);
    if (cb === null || cb?.value === null) exec.dynamic ??= "the callback is not static";
    else if (cb?.value) {
      run.script(cb.value, copyShell(shell), run.depth + 1, run.dialect);
      // The callback runs in this shell, once per N lines read: its moves stay.
      if (run.movesDir(cb.value)) unknownDir(shell);
    }
  }
  if (name === "cd" || name === "pushd" || name === "popd") moveDir(name, argv, shell);
  if (CWD_UNKNOWN_AFTER.has(name)) {
    shell.cwd = null;
    // `source <(curl …)` runs another command's output.
    if (argv[1]?.pipe) exec.dynamic ??= "it runs a program read from another command's output";
  }

  if (unwrapped === null) return;
  switch (unwrapped.kind) {
    case "inner": {
      const innerShell = copyShell(shell);
      if (unwrapped.chdir !== undefined)
        innerShell.cwd = unwrapped.chdir === null ? null : moveTo(shell.cwd, unwrapped.chdir, "chdir");
      const innerPrefixes = [...prefixes, ...unwrapped.assigns.map(prefixOf)];
      const viaShell = name === "command" || name === "builtin" || name === "exec";
      // `find … | xargs CMD`: CMD's extra words are the paths find prints, when both are understood.
      const overFound = input.piped === undefined ? null : xargsOverFound(argv, input.piped);
      simpleCommand(
        {
          argv: overFound ?? unwrapped.argv,
          prefixes: innerPrefixes,
          stdin,
          shell: viaShell ? shell : innerShell,
          appends: overFound === null && unwrapped.appends === true,
          ...(input.piped !== undefined && name !== "xargs" ? { piped: input.piped } : {}),
        },
        child,
      );
      return;
    }
    case "script": {
      if (unwrapped.script === null) return;
      const dialect = SHELLS.has(name)
        ? shellDialect(name)
        : name === "eval"
          ? run.dialect
          : wrapperDialect(wrapper?.name ?? name);
      run.script(unwrapped.script, name === "eval" ? shell : childShell(shell), run.depth + 1, dialect);
      return;
    }
    case "stdin-shell":
      if (stdin !== null) run.script(stdin, childShell(shell), run.depth + 1, shellDialect(name));
      return;
    default:
      return;
  }
}
