// Shell-aware matching: a bash command becomes the list of every simple command it can run
// (through operators, compound commands, substitutions, `bash -c`, eval, heredocs fed to a
// shell and wrappers like sudo or xargs) plus the files its redirections write or read.
import { Lru } from "./lru.ts";
import { basename } from "./paths.ts";
import { type ParsedScript, parseBash, type Redirect, redirOps, type Word } from "./shell-parser.ts";
import { wordValue } from "./shell-words.ts";
import { type Arg, DANGEROUS_ENV, unwrap } from "./shell-wrappers.ts";

export type ShellUnit =
  /** A simple command. `dynamic` says why it can never be allowed (its name is not static). */
  | { kind: "exec"; argv: string[]; text: string; dynamic: string | null }
  /** Output redirection: a write to `path` (null when the target is not static). */
  | { kind: "write"; path: string | null; text: string }
  | { kind: "read"; path: string | null; text: string }
  | { kind: "unparsable"; text: string; reason: string };

export interface ShellAnalysis {
  units: readonly ShellUnit[];
}

/** Replaceable so a host without mvdan-sh could plug in another parser behind the same shape. */
export interface ShellAnalyzer {
  analyze(command: string): ShellAnalysis;
}

const MAX_DEPTH = 8;
const MAX_UNITS = 2000;
const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
let writeOpsCache: ReadonlySet<number> | undefined;
function writeOps(): ReadonlySet<number> {
  const op = redirOps();
  writeOpsCache ??= new Set([op.out, op.append, op.clobber, op.all, op.appendAll, op.readWrite]);
  return writeOpsCache;
}

class Collector {
  readonly units: ShellUnit[] = [];
  push(unit: ShellUnit): void {
    if (this.units.length < MAX_UNITS) this.units.push(unit);
    else if (this.units[this.units.length - 1]?.kind !== "unparsable") {
      this.units.push({ kind: "unparsable", text: unit.text, reason: "command is too large to analyse" });
    }
  }
}

function argOf(src: string, word: Word): Arg {
  const { value, expands } = wordValue(word);
  return { value, raw: src.slice(word.start, word.end), expands };
}

function textOf(argv: Arg[]): string {
  return argv.map((a) => a.value ?? a.raw).join(" ");
}

function handleArgv(argv: Arg[], stdinScript: string | null, depth: number, out: Collector): void {
  const head = argv[0];
  if (!head) return;
  const text = textOf(argv);
  const words = argv.map((a) => a.value ?? a.raw);
  if (head.value === null || head.expands) {
    out.push({ kind: "exec", argv: words, text, dynamic: `command name ${head.raw} is not static` });
    return;
  }
  out.push({ kind: "exec", argv: words, text, dynamic: null });
  if (head.value.includes("/")) {
    // /bin/rm must meet the rules written for rm; the full path is judged as well.
    const short = [basename(head.value), ...words.slice(1)];
    out.push({ kind: "exec", argv: short, text: short.join(" "), dynamic: null });
  }
  if (basename(head.value) === "env") {
    const bad = argv.find((a) => a.value !== null && DANGEROUS_ENV.test(a.value));
    if (bad)
      out.push({ kind: "exec", argv: words, text, dynamic: `${bad.raw} changes how commands are found` });
  }
  if (depth >= MAX_DEPTH) {
    out.push({ kind: "unparsable", text, reason: "commands nested too deeply" });
    return;
  }
  const inner = unwrap(argv);
  switch (inner.kind) {
    case "inner":
      handleArgv(inner.argv, stdinScript, depth + 1, out);
      return;
    case "script":
      if (inner.script === null)
        out.push({ kind: "exec", argv: words, text, dynamic: "script string is not static" });
      else analyzeScript(inner.script, depth + 1, out);
      return;
    case "stdin-shell":
      if (stdinScript === null) {
        out.push({
          kind: "exec",
          argv: words,
          text,
          dynamic: "shell runs a program read from standard input",
        });
      } else analyzeScript(stdinScript, depth + 1, out);
      return;
    case "none":
      return;
  }
}

/** mvdan/sh's heredoc range ends with the closing delimiter line; the program is what precedes it. */
function heredocBody(raw: string, delimiter: string | null): string {
  const lines = raw.split("\n");
  const last = lines[lines.length - 1]?.replace(/^\t+/, "");
  if (delimiter !== null && last === delimiter) lines.pop();
  return lines.join("\n");
}

function handleRedirects(src: string, redirs: readonly Redirect[], out: Collector): string | null {
  let stdinScript: string | null = null;
  const ops = redirOps();
  for (const r of redirs) {
    const target = r.word ? wordValue(r.word).value : null;
    const text = src.slice(r.start, r.end);
    if (r.op === ops.hdoc || r.op === ops.dashHdoc) {
      stdinScript = r.hdoc ? heredocBody(src.slice(r.hdoc.start, r.hdoc.end), target) : "";
    } else if (r.op === ops.word) {
      stdinScript = target;
    } else if (
      writeOps().has(r.op) ||
      (r.op === ops.dupOut && target !== null && !/^(\d+|-)$/.test(target))
    ) {
      if (target === null || !HARMLESS_TARGETS.test(target)) out.push({ kind: "write", path: target, text });
    } else if (r.op === ops.in) {
      if (target === null || !HARMLESS_TARGETS.test(target)) out.push({ kind: "read", path: target, text });
    }
  }
  return stdinScript;
}

function analyzeScript(src: string, depth: number, out: Collector): void {
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
  for (const event of script.events) {
    if (event.kind === "assign") {
      const text = src.slice(event.start, event.end);
      if (DANGEROUS_ENV.test(text)) {
        const name = text.split("=")[0];
        out.push({ kind: "exec", argv: [text], text, dynamic: `${name} changes how commands are found` });
      }
      continue;
    }
    const stdinScript = handleRedirects(src, event.redirs, out);
    const cmd = event.cmd;
    if (cmd?.type === "call") {
      if (cmd.args.length > 0)
        handleArgv(
          cmd.args.map((w) => argOf(src, w)),
          stdinScript,
          depth,
          out,
        );
    } else if (cmd?.type === "decl") {
      const argv = [cmd.variant, ...cmd.args.map((a) => src.slice(a.start, a.end))];
      out.push({ kind: "exec", argv, text: argv.join(" "), dynamic: null });
    }
  }
}

export function analyzeShellUncached(command: string): ShellAnalysis {
  const out = new Collector();
  analyzeScript(command, 0, out);
  if (out.units.length === 0 && command.trim() !== "") {
    // Only assignments or comments: nothing runs, but say so explicitly for the record.
    return { units: [] };
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
