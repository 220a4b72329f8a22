// Shell-aware matching: a bash command becomes the list of every simple command it can run
// (through operators, compound commands, substitutions, `bash -c`, eval, traps, here-documents
// fed to a shell and wrappers like sudo or xargs), every file those commands and redirections
// read or write, and the working directory each runs in. Text the parser and bash could read
// differently, and words bash evaluates again as code, are never judged as harmless.
import { Lru } from "../lru.ts";
import { openingBindings, settledOpenings } from "./assigned-words.ts";
import { namesSetBy } from "./builtins.ts";
import { copyShell, execUnit, prefixConcerns, type Run, type Shell, simpleCommand } from "./command.ts";
import { START, unionCwd } from "./cwd.ts";
import { type Dialect, dialectConcern } from "./dialect.ts";
import { dangerousVariable } from "./env-vars.ts";
import { openedDescriptors } from "./exec-fds.ts";
import { pipedPaths, substitutedPaths } from "./found-paths.ts";
import { boundArgvs, type LoopBinding, loopBinding, scriptSetters, sourcesAFile } from "./loop-vars.ts";
import {
  type Assignment,
  type Command,
  type ParsedScript,
  parseBash,
  type Redirect,
  redirOps,
  type ScopeKind,
  type StmtEvent,
  type Word,
} from "./parser.ts";
import { unknownExpansions } from "./secret-output.ts";
import { disagreement } from "./text-checks.ts";
import type { Concern, ShellAnalysis, ShellPrefix, ShellUnit } from "./units.ts";
import { DYNAMIC_WORD, expandWord, wordValue } from "./words.ts";
import type { Arg } from "./wrappers.ts";

/** Replaceable so a host without mvdan-sh could plug in another parser behind the same shape. */
export interface ShellAnalyzer {
  analyze(command: string): ShellAnalysis;
}

const MAX_UNITS = 2000;
const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|stdin|tty|fd\/[012])$/;
/**
 * A descriptor the shell did not open here (`>/dev/fd/3`, `>&3`, `/proc/self/fd/3`): whatever file the
 * agent's shell inherited it for, not known before it runs. 0-2 are the command's own streams.
 */
const INHERITED_FD = /^\/(dev\/fd|proc\/(self|\d+)\/fd)\/\d+$/;
let writeOpsCache: ReadonlySet<number> | undefined;
function writeOps(): ReadonlySet<number> {
  const op = redirOps();
  writeOpsCache ??= new Set([op.out, op.append, op.clobber, op.all, op.appendAll, op.readWrite]);
  return writeOpsCache;
}
/** Builtins and programs that change the directory, or run code that may. */
const CWD_CHANGERS = new Set(["cd", "pushd", "popd", "source", ".", "eval", "builtin", "command", "trap"]);

class Collector {
  readonly units: ShellUnit[] = [];
  push(unit: ShellUnit): void {
    if (this.units.length < MAX_UNITS) this.units.push(unit);
    else if (this.units[this.units.length - 1]?.kind !== "unparsable") {
      this.units.push({ kind: "unparsable", text: unit.text, reason: "command is too large to analyse" });
    }
  }
}

function argsOf(src: string, words: readonly Word[]): Arg[] {
  const out: Arg[] = [];
  for (const w of words) {
    const raw = src.slice(w.start, w.end);
    // expandWord returns fresh objects: each becomes an argument as it is.
    for (const v of expandWord(w)) out.push(Object.assign(v, { raw }));
  }
  return out;
}

function prefixesOf(src: string, assigns: readonly Assignment[]): ShellPrefix[] {
  return assigns.map((a) => ({
    name: a.name,
    value:
      a.array || a.indexed || a.value === null
        ? a.value === null && !a.array
          ? ""
          : null
        : wordValue(a.value).value,
    raw: src.slice(a.start, a.end),
  }));
}

/**
 * What a here-document gives standard input: with a quoted delimiter its text as written; without,
 * its text after `\$`, `` \` ``, `\\` and backslash-newline are unescaped; null when it expands
 * something. Read from the parser's values, not the source, which inside backquotes carries an
 * extra level of backslashes.
 */
function heredocBody(body: Word, delimiter: Word | null): string | null {
  const quoted = delimiter?.parts.some((p) => p.type !== "lit" || p.value.includes("\\")) === true;
  let text = "";
  for (const p of body.parts) {
    if (p.type !== "lit") return null;
    text += p.value;
  }
  return quoted ? text : text.replace(/\\([$`\\\n])/g, (_m, c: string) => (c === "\n" ? "" : c));
}

/** Judges a statement's redirections; returns the static script on its standard input, if any. */
function redirects(
  src: string,
  redirs: readonly Redirect[],
  shell: Shell,
  out: Collector,
  secrets: Concern[],
): string | null {
  let stdin: string | null = null;
  const ops = redirOps();
  for (const r of redirs) {
    const target = r.word ? wordValue(r.word) : DYNAMIC_WORD;
    const text = src.slice(r.start, r.end);
    const opened = openedFile(src, r, target.value, shell);
    const push = (kind: "read" | "write", fd = false) => {
      // A process substitution's pipe is not a file; the command behind it is judged itself.
      if (target.pipe || (target.value !== null && HARMLESS_TARGETS.test(target.value))) return;
      const inherited = fd || (target.value !== null && INHERITED_FD.test(target.value));
      for (const dir of shell.cwd ?? [null]) {
        out.push({
          kind,
          path: inherited ? null : target.value,
          text,
          cwd: dir,
          tilde: target.tilde,
          glob: target.glob,
          recursive: false,
          ...(shell.fds?.get(text[0] ?? "")?.opening === r ? { opens: true as const } : {}),
        });
      }
    };
    if (opened !== null) {
      // `<&3` after the script's opening `exec 3<FILE`: FILE, opened where the script started.
      out.push({ kind: "read", path: opened, text, cwd: ".", tilde: false, glob: false, recursive: false });
      continue;
    }
    if (r.op === ops.hdoc || r.op === ops.dashHdoc) {
      stdin = r.hdoc ? heredocBody(r.hdoc, r.word) : "";
      // An unquoted here-document expands `$NAME` wherever it stands, quotes or not.
      const quoted = r.word?.parts.some((p) => p.type !== "lit" || p.value.includes("\\")) === true;
      if (r.hdoc && !quoted)
        stdinSecrets(src.slice(r.hdoc.start, r.hdoc.end).replace(/'/g, ""), secrets, shell.assigned);
    } else if (r.op === ops.word) {
      stdin = target.value;
      if (r.word) stdinSecrets(src.slice(r.word.start, r.word.end), secrets, shell.assigned);
    } else if (r.op === ops.readWrite) {
      push("read");
      push("write");
    } else if (
      writeOps().has(r.op) ||
      (r.op === ops.dupOut && target.value !== null && !/^(\d+|-)$/.test(target.value))
    ) {
      push("write");
    } else if (
      r.op === ops.in ||
      (r.op === ops.dupIn && target.value !== null && !/^(\d+|-)$/.test(target.value))
    ) {
      push("read");
    } else if ((r.op === ops.dupOut || r.op === ops.dupIn) && /^([3-9]|\d{2,})-?$/.test(target.value ?? "")) {
      push(r.op === ops.dupOut ? "write" : "read", true);
    }
  }
  return stdin;
}

/** The file a `<&N` reads when the script's opening `exec` bound fd N (exec-fds.ts), or null. */
function openedFile(src: string, r: Redirect, target: string | null, shell: Shell): string | null {
  const b = target === null ? undefined : shell.fds?.get(target);
  if (b === undefined || b.src !== src || r.op !== redirOps().dupIn || r.start < b.after) return null;
  return /^\d/.test(src.slice(r.start, r.end)) ? null : b.path;
}

/** A here-string or here-document that expands a variable not known to be harmless gives it to the command. */
function stdinSecrets(raw: string, secrets: Concern[], assigned: ReadonlySet<string>): void {
  secrets.push(...unknownExpansions(raw, assigned, "standard input"));
}

/** For each event, how many statements before it may move the working directory. */
function dirMoves(events: ParsedScript["events"]): Uint32Array {
  const before = new Uint32Array(events.length + 1);
  events.forEach((e, i) => {
    let moves = false;
    if (e.kind === "stmt" && e.cmd?.type === "call") {
      const first = e.cmd.args[0];
      if (first !== undefined) {
        const v = wordValue(first).value;
        // `builtin cd` and `command cd` count through their first word.
        moves = v === null || CWD_CHANGERS.has(v);
      }
    }
    before[i + 1] = (before[i] as number) + (moves ? 1 : 0);
  });
  return before;
}

/** Whether a script string may move the shell: a statement of it changes directory (or cannot be read). */
function scriptMovesDir(src: string): boolean {
  try {
    const { events } = parseBash(src);
    return (dirMoves(events)[events.length] as number) > 0;
  } catch {
    return true;
  }
}

/** For each `enter` event, the index of its `leave`. */
function scopeEnds(events: ParsedScript["events"]): Map<number, number> {
  const ends = new Map<number, number>();
  const open: number[] = [];
  events.forEach((e, i) => {
    if (e.kind === "enter") open.push(i);
    else if (e.kind === "leave") ends.set(open.pop() as number, i);
  });
  return ends;
}

interface Saved {
  kind: ScopeKind;
  shell: Shell;
  moves: boolean;
}

/** A declaration's words as a builtin's argv: the variant, then each argument as bash passes it. */
function declArgv(src: string, cmd: Extract<Command, { type: "decl" }>): Arg[] {
  const argv: Arg[] = [{ value: cmd.variant, raw: cmd.variant, glob: false, tilde: false }];
  for (const a of cmd.args) {
    const raw = src.slice(a.start, a.end);
    if (a.naked) {
      const v = a.name !== "" ? a.name : a.value ? wordValue(a.value).value : null;
      argv.push({ value: v, raw, glob: false, tilde: false });
    } else {
      const value = a.array ? "(…)" : a.value ? wordValue(a.value).value : "";
      argv.push({
        value: value === null ? null : `${a.name}${a.append ? "+=" : "="}${value}`,
        raw,
        glob: false,
        tilde: false,
        ...(value === null && !a.indexed && a.name !== "" ? { declares: a.name } : {}),
      });
    }
  }
  return argv;
}

/** A statement's words as the command it runs sees them, or null for one that is not a command. */
function statementArgv(src: string, event: StmtEvent): Arg[] | null {
  if (event.cmd?.type === "call") return argsOf(src, event.cmd.args);
  if (event.cmd?.type === "decl") return declArgv(src, event.cmd);
  return null;
}

/** Variables a statement sets from the script's own words (never `${X:=v}`, which keeps a set X). */
function setNames(src: string, event: StmtEvent): string[] {
  const cmd = event.cmd;
  const names: string[] = [...event.loopNames];
  if (cmd?.type === "call") {
    if (cmd.args.length === 0) names.push(...prefixesOf(src, cmd.assigns).map((p) => p.name));
    else names.push(...namesSetBy(argsOf(src, cmd.args)));
  } else if (cmd?.type === "decl")
    for (const a of cmd.args) if (!a.naked && a.name !== "") names.push(a.name);
  return names;
}

function statement(src: string, event: StmtEvent, shell: Shell, run: Run, out: Collector): void {
  const secrets: Concern[] = [];
  const stdin = redirects(src, event.redirs, shell, out, secrets);
  const before = out.units.length;
  const cmd = event.cmd;
  if (cmd?.type === "call") {
    const prefixes = prefixesOf(src, cmd.assigns);
    if (cmd.args.length > 0) {
      // A loop variable's known values: the command once per value (loop-vars.ts).
      const argvs = (
        boundArgvs(cmd.args, shell.bound, (ws) => argsOf(src, ws)) ?? [argsOf(src, cmd.args)]
      ).map((argv) => substitutedPaths(src, argv, (ws) => argsOf(src, ws), shell.assigned));
      const piped = pipedPaths(src, event, (ws) => argsOf(src, ws));
      for (const argv of argvs)
        simpleCommand(
          { argv, prefixes, stdin, shell, concerns: secrets, ...(piped === null ? {} : { piped }) },
          run,
        );
    } else {
      // Assignments alone change the shell for every later command.
      const concerns = prefixConcerns(prefixes);
      for (const p of prefixes) concerns.push(...unknownExpansions(p.raw, shell.assigned, `\`${p.raw}\``));
      if (concerns.length > 0) {
        const argv = prefixes.map((p) => ({ value: p.raw, raw: p.raw, glob: false, tilde: false }));
        out.push(execUnit(argv, { prefixes, cwd: shell.cwd, dynamic: null, effect: "run", concerns }));
      }
      if (prefixes.some((p) => p.name === "CDPATH" || p.name === "HOME" || p.name === "PWD"))
        shell.cwd = null;
    }
  } else if (cmd?.type === "decl") {
    const argv = declArgv(src, cmd);
    const arrays = cmd.args.some(
      (a) => a.naked && a.value !== null && /^[-+][a-zA-Z]*[aA]/.test(wordValue(a.value).value ?? ""),
    );
    const stringIntoArray = arrays && cmd.args.some((a) => !a.naked && !a.array && a.value !== null);
    simpleCommand({ argv, prefixes: [], stdin, shell, concerns: secrets }, run);
    if (stringIntoArray)
      event.hazards = [
        ...event.hazards,
        {
          reason: "a string assigned to an array is parsed again (its subscripts run as code)",
          start: event.start,
          end: event.end,
        },
      ];
  } else if (cmd?.type === "keyword") {
    const text = src.slice(cmd.start, cmd.end).split("\n")[0] ?? "";
    const argv = text
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => ({ value: w, raw: w, glob: false, tilde: false }));
    // What `[[ … ]]` tests is expanded: `[[ $SENTRY_DSN == a* ]] && echo y` prints a secret a bit at a
    // time, so only harmless variables may expand in it, as in any command's words.
    const concerns = unknownExpansions(src.slice(cmd.start, cmd.end), shell.assigned, `\`${text}\``);
    out.push(execUnit(argv, { prefixes: [], cwd: shell.cwd, dynamic: null, effect: "read", concerns }));
  } else if (cmd?.type === "case") {
    // `case $SENTRY_DSN in a*) echo y;; esac`: the branch taken prints what the word holds.
    const word = src.slice(cmd.start, cmd.end);
    const concerns = unknownExpansions(word, shell.assigned, `\`case ${word}\``);
    if (concerns.length > 0) {
      const argv = [{ value: `case ${word}`, raw: `case ${word}`, glob: false, tilde: false }];
      out.push(execUnit(argv, { prefixes: [], cwd: shell.cwd, dynamic: null, effect: "read", concerns }));
    }
  }
  if (event.loopNames.length > 0) {
    // A `for NAME in WORDS` header: its words expand here, and NAME then holds them.
    const header = src.slice(event.start, event.end).split(/;\s*do\b|\n/)[0] as string;
    const concerns = unknownExpansions(header, shell.assigned, "the loop");
    if (concerns.length > 0) {
      const argv = [{ value: header, raw: header, glob: false, tilde: false }];
      out.push(execUnit(argv, { prefixes: [], cwd: shell.cwd, dynamic: null, effect: "read", concerns }));
    }
  }
  const names = setNames(src, event);
  for (const name of names) shell.assigned.add(name);
  // Even where a rule lets DIRSTACK be set, where popd goes next is no longer known.
  if (names.includes("DIRSTACK") || event.assigned.includes("DIRSTACK"))
    shell.stack = shell.stack.map(() => null);
  for (const name of event.assigned) {
    const why = dangerousVariable(name);
    if (why === null) continue;
    const text = src.slice(event.start, event.end).split("\n")[0] ?? name;
    out.push(
      execUnit([{ value: text, raw: text, glob: false, tilde: false }], {
        prefixes: [],
        cwd: shell.cwd,
        dynamic: null,
        effect: "run",
        concerns: [{ mention: name, reason: why }],
      }),
    );
  }
  if (event.hazards.length === 0) return;
  // Code bash evaluates again: the statement's own command is never allowed.
  const reason = (event.hazards[0] as { reason: string }).reason;
  const own = out.units.slice(before).find((u) => u.kind === "exec");
  if (own && own.kind === "exec") own.dynamic ??= reason;
  else {
    const text = src.slice(event.start, event.end);
    out.push(
      execUnit([{ value: text, raw: text, glob: false, tilde: false }], {
        prefixes: [],
        cwd: shell.cwd,
        dynamic: reason,
        effect: "run",
        concerns: [],
      }),
    );
  }
}

function analyzeScript(
  src: string,
  shell: Shell,
  depth: number,
  out: Collector,
  dialect: Dialect = "bash",
): void {
  const disagrees = disagreement(src) ?? dialectConcern(src, dialect);
  if (disagrees !== null) {
    out.push({ kind: "unparsable", text: src, reason: disagrees });
    return;
  }
  let script: ParsedScript;
  try {
    script = parseBash(src);
  } catch (error) {
    out.push({
      kind: "unparsable",
      text: src,
      reason: error instanceof Error ? error.message : String(error),
    });
    return;
  }
  const { events } = script;
  const run: Run = {
    push: (u) => out.push(u),
    script: (inner, innerShell, innerDepth, innerDialect) =>
      analyzeScript(inner, innerShell, innerDepth, out, innerDialect),
    movesDir: scriptMovesDir,
    depth,
    dialect,
  };
  const ends = events.some((e) => e.kind === "enter") ? scopeEnds(events) : null;
  const moves = ends === null ? null : dirMoves(events);
  const movesDir = (from: number, to: number) =>
    moves !== null && (moves[to] as number) > (moves[from] as number);
  const anywhere = movesDir(0, events.length);
  const saved: Saved[] = [];
  // A `for` header's binding, taken up by the loop it opens; none in a script that sources a file.
  let loop: LoopBinding | null = null;
  const sources = sourcesAFile(events, (w) => wordValue(w).value);
  if (!sources && depth === 0) {
    const fds = openedDescriptors(src, events);
    if (fds.size > 0) shell.fds = fds;
  }
  // `x=README.md; cat "$x"`: the command's opening assignments, known in every later statement. Only the
  // command's own text: a name checked in an eval'd or `bash -c` string alone may be set around it.
  const openingRaw =
    sources || depth > 0
      ? null
      : openingBindings(src, events, (e) => (e.cmd?.type === "call" ? prefixesOf(src, e.cmd.assigns) : []));
  // An opening assignment holds only when no other statement may set its name (`printf -vx`, `read -rx`,
  // a name only known at run time), as a loop variable does.
  const settled =
    openingRaw !== null && openingRaw.size > 0
      ? settledOpenings(
          openingRaw,
          events,
          (e) => statementArgv(src, e),
          (ws) => argsOf(src, ws),
        )
      : null;
  const setters =
    settled?.setters ??
    (events.some((e) => e.kind === "stmt" && e.loopNames.length > 0)
      ? scriptSetters(events, (e) => statementArgv(src, e))
      : null);
  const opening = settled?.opening ?? null;
  events.forEach((event, i) => {
    // Only the event right after a `cd` statement may use where that `cd` leads when it succeeds.
    const cdSucceeded = shell.cdSucceeded;
    shell.cdSucceeded = undefined;
    switch (event.kind) {
      case "assign":
        return;
      case "enter": {
        const end = ends?.get(i) ?? events.length;
        const inside = movesDir(i, end);
        saved.push({ kind: event.scope, shell: copyShell(shell), moves: inside });
        // `cd sub && x`: x runs only if the cd succeeded, so only in `sub`.
        if (event.scope === "andThen" && cdSucceeded !== undefined) shell.cwd = cdSucceeded;
        // A loop repeats its moves; a function body runs later, from wherever the script is then.
        if (event.scope === "loop" && inside) shell.cwd = null;
        if (event.scope === "function") shell.cwd = anywhere ? null : START;
        if (event.scope === "loop" && loop !== null) shell.bound = new Map(shell.bound).set(loop.name, loop);
        loop = null;
        return;
      }
      case "leave": {
        const s = saved.pop();
        if (s === undefined) return;
        // A binding ends with the scope it was made in.
        if (s.shell.bound === undefined) delete shell.bound;
        else shell.bound = s.shell.bound;
        if (s.kind === "subshell" || s.kind === "function") {
          shell.cwd = s.shell.cwd;
          shell.stack = s.shell.stack;
        }
        if (s.kind === "function" && s.moves) shell.cwd = null;
        // After `a && b` the shell is where `a` left it (b did not run) or where `b` left it.
        if (s.kind === "andThen") {
          shell.cwd = unionCwd(s.shell.cwd, shell.cwd);
          if (s.shell.stack.length !== shell.stack.length) shell.cwd = null;
        }
        return;
      }
      case "stmt": {
        statement(src, event, shell, run, out);
        const bound = opening?.get(i);
        if (bound !== undefined) {
          const next = new Map(shell.bound);
          for (const b of bound) next.set(b.name, b);
          shell.bound = next;
        }
        loop = sources || setters === null ? null : loopBinding(src, event, (ws) => argsOf(src, ws), setters);
        return;
      }
    }
  });
}

export function analyzeShellUncached(command: string): ShellAnalysis {
  const out = new Collector();
  try {
    const shell: Shell = { cwd: START, stack: [], assigned: new Set() };
    if (/[*?[]/.test(command)) shell.globs = true;
    analyzeScript(command, shell, 0, out);
  } catch (error) {
    // A bug here must not let anything through: the whole command becomes unparsable.
    const why = error instanceof Error ? error.message : String(error);
    return { units: [{ kind: "unparsable", text: command, reason: `the analysis failed (${why})` }] };
  }
  return { units: out.units };
}

const cache = new Lru<string, ShellAnalysis>(4096);
const MAX_CACHED_LENGTH = 16_384;

export const mvdanAnalyzer: ShellAnalyzer = {
  analyze(command) {
    if (command.length > MAX_CACHED_LENGTH) return analyzeShellUncached(command);
    let hit = cache.get(command);
    if (hit === undefined) {
      hit = analyzeShellUncached(command);
      cache.set(command, hit);
    }
    return hit;
  },
};

let current: ShellAnalyzer = mvdanAnalyzer;

export function setShellAnalyzer(analyzer: ShellAnalyzer): void {
  current = analyzer;
}

export function analyzeShell(command: string): ShellAnalysis {
  return current.analyze(command);
}

export function clearShellCache(): void {
  cache.clear();
}
