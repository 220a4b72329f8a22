// Shell-aware matching: a bash command becomes the list of every simple command it can run
// (through operators, compound commands, substitutions, `bash -c`, eval, traps, here-documents
// fed to a shell and wrappers like sudo or xargs), every file those commands and redirections
// read or write, and the working directory each runs in. Text the parser and bash could read
// differently, and words bash evaluates again as code, are never judged as harmless.

import { Lru } from "../lru.ts";
import { openingBindings, settledOpenings, withoutArithmeticReads } from "./assigned-words.ts";
import { Collector } from "./collector.ts";
import { copyShell, type Run, type Shell } from "./command.ts";
import { START, unionCwd } from "./cwd.ts";
import { type Dialect, dialectConcern } from "./dialect.ts";
import { dirMoves, scopeEnds, scriptMovesDir } from "./dir-moves.ts";
import { openedDescriptors } from "./exec-fds.ts";
import { underGlobstar } from "./globstar.ts";
import { type LoopBinding, loopBinding, scriptSetters, sourcesAFile } from "./loop-vars.ts";
import { type ParsedScript, parseBash, type ScopeKind } from "./parser.ts";
import { statement } from "./statement.ts";
import { argsOf, prefixesOf, statementArgv } from "./statement-words.ts";
import { EnclosingFds, type StdFds, UNKNOWN_FDS } from "./std-fds.ts";
import { disagreement } from "./text-checks.ts";
import type { ShellAnalysis } from "./units.ts";
import { globFreeOutput, unquotedGlobConcerns } from "./unquoted-globs.ts";
import { wordValue } from "./words.ts";

/** Replaceable so a host without mvdan-sh could plug in another parser behind the same shape. */
export interface ShellAnalyzer {
  analyze(command: string): ShellAnalysis;
}

interface Saved {
  kind: ScopeKind;
  shell: Shell;
  moves: boolean;
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
  // Names arithmetic only reads (`$((n*2))`) are reads, as `$n` is, wherever a name must be mentioned once.
  const mentions = withoutArithmeticReads(src, events);
  const openingRaw =
    sources || depth > 0
      ? null
      : openingBindings(
          src,
          events,
          (e) =>
            e.cmd?.type === "call"
              ? prefixesOf(src, e.cmd.assigns)
              : e.cmd?.type === "decl"
                ? prefixesOf(src, e.cmd.args)
                : [],
          (e, name) => {
            const assigns = e.cmd?.type === "call" ? e.cmd.assigns : e.cmd?.type === "decl" ? e.cmd.args : [];
            const a = assigns.find((x) => x.name === name && !x.naked && !x.array && !x.indexed && !x.append);
            return a?.value ? globFreeOutput(a.value, src.slice(a.value.start, a.value.end)) : null;
          },
          mentions,
        );
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
  const pointing = new EnclosingFds(shell.std);
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
        const within = pointing.at(event);
        if (within === undefined) delete shell.std;
        else shell.std = within;
        pointing.enter(event, statement(src, event, shell, run, out));
        const bound = opening?.get(i);
        if (bound !== undefined) {
          const next = new Map(shell.bound);
          for (const b of bound) next.set(b.name, b);
          shell.bound = next;
        }
        loop =
          sources || setters === null
            ? null
            : loopBinding(
                src,
                event,
                (ws) => argsOf(src, ws),
                setters,
                mentions,
                (values) =>
                  values.every((v) => !v.glob && unquotedGlobConcerns([v], shell.assigned).length === 0),
              );
        return;
      }
    }
  });
}

function analyzeCommand(command: string, std?: StdFds): Collector {
  const out = new Collector();
  const shell: Shell = { cwd: START, stack: [], assigned: new Set() };
  if (/[*?[]/.test(command)) shell.globs = true;
  if (std !== undefined) shell.std = std;
  analyzeScript(command, shell, 0, out);
  return out;
}

export function analyzeShellUncached(command: string): ShellAnalysis {
  try {
    const out = analyzeCommand(command);
    // An `exec` (in a branch, a loop, an eval'd string) may point fds 0-2 anywhere from where it runs on:
    // `/dev/stdin` and its kin are then not known anywhere in the command.
    const units = out.units.some((u) => u.kind === "exec" && u.program === "exec")
      ? analyzeCommand(command, UNKNOWN_FDS).units
      : out.units;
    return { units: underGlobstar(units) };
  } catch (error) {
    // A bug here must not let anything through: the whole command becomes unparsable.
    const why = error instanceof Error ? error.message : String(error);
    return { units: [{ kind: "unparsable", text: command, reason: `the analysis failed (${why})` }] };
  }
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
