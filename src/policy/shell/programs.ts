// One program's arguments through the tables: which are files it reads or writes, which options
// write, run or escape, whether it opens an interactive session, and what it does (for risk).
import { basename } from "../paths.ts";
import {
  FILE_PROGRAMS,
  type Effect as FileEffect,
  type FileProgram,
  type ValueRole,
} from "./file-programs.ts";
import { judgeGit } from "./git.ts";
import { judgeByGrammar } from "./grammar/judge.ts";
import type { Effects, NotUnderstood } from "./grammar/spec.ts";
import { GRAMMARS } from "./grammars.ts";
import { inlineCode, interactiveSession } from "./interpreters.ts";
import { lookup } from "./lookup.ts";
import { RISKY_OPERANDS, RISKY_OPTIONS, type RiskyOption } from "./risky-options.ts";
import type { Concern, Effect } from "./units.ts";
import type { Arg } from "./wrappers.ts";

export interface FileUse {
  arg: Arg;
  recursive: boolean;
  /** When the path is a directory, the program reads every file directly in it (`diff DIR1 DIR2`, `file -m DIR`). */
  entries?: true;
}

export interface ProgramJudgement {
  effect: Effect;
  reads: FileUse[];
  writes: FileUse[];
  concerns: Concern[];
  /** Commands the program runs itself (`find -exec`). */
  inner: Arg[][];
  /** Directories the program moves to before using its paths (`git -C dir`). */
  chdir: Arg[];
  dynamic: string | null;
  /** For a program with a grammar: null when every word is placed, else the word that is not. */
  understood?: NotUnderstood | null;
  /** For a program with a grammar: its typed effects (grammar/spec.ts). */
  effects?: Effects;
}

const UNKNOWN: Arg = { value: null, raw: "?", glob: false, tilde: false };
const DOT: Arg = { value: ".", raw: ".", glob: false, tilde: false };

function use(arg: Arg, recursive = false): FileUse {
  return { arg, recursive };
}

function grammarRead(r: { arg: Arg; recursive: boolean; entries?: true }): FileUse {
  return r.entries === true ? { arg: r.arg, recursive: false, entries: true } : use(r.arg, r.recursive);
}

/** A long option given as a unique prefix (`--out` for `--output`), as GNU getopt accepts. */
function longKey<T>(table: Readonly<Record<string, T>> | undefined, name: string): string | undefined {
  if (table === undefined) return undefined;
  if (lookup(table, name) !== undefined) return name;
  if (!name.startsWith("--") || name.length < 4) return undefined;
  return Object.keys(table).find((k) => k.startsWith(name));
}

/** A remote `host:path` operand of scp or rsync is not a local file. */
function isRemote(v: string): boolean {
  return /^[^/]*:/.test(v) && !v.startsWith("./");
}

interface Scanned {
  operands: Arg[];
  flags: Set<string>;
  /** Option values, by option name. */
  values: Map<string, Arg[]>;
  risky: { key: string; option: RiskyOption; value: Arg | null }[];
  dynamic: string | null;
}

/** Splits a program's words into options (with their values) and operands. */
function scan(
  argv: readonly Arg[],
  spec: FileProgram | undefined,
  risky: Readonly<Record<string, RiskyOption>> | undefined,
  strict: boolean,
): Scanned {
  const out: Scanned = { operands: [], flags: new Set(), values: new Map(), risky: [], dynamic: null };
  const valueRoles: Readonly<Record<string, ValueRole>> = spec?.values ?? {};
  const takesValue = (key: string) =>
    lookup(valueRoles, key) !== undefined || lookup(risky, key)?.value === true;
  const record = (key: string, value: Arg | null) => {
    const option = lookup(risky, key);
    if (option && (option.when === undefined || (value?.value != null && option.when.test(value.value))))
      out.risky.push({ key, option, value });
    if (value !== null) out.values.set(key, [...(out.values.get(key) ?? []), value]);
    else out.flags.add(key);
  };
  let afterDashes = false;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as Arg;
    const v = a.value;
    if (v === null) {
      if (!afterDashes && strict && out.dynamic === null)
        out.dynamic = `argument ${a.raw} is not static (it could be an option that writes or runs)`;
      out.operands.push(a);
      continue;
    }
    if (afterDashes || v === "-" || !v.startsWith("-")) {
      // A glob may expand to a file named like an option (`-o`, `--to-command=…`).
      if (!afterDashes && strict && a.glob && /^[*?[]/.test(v) && out.dynamic === null)
        out.dynamic = `glob ${a.raw} may expand to a file name that is an option`;
      out.operands.push(a);
      continue;
    }
    if (v === "--") {
      afterDashes = true;
      continue;
    }
    if (v.startsWith("--") || lookup(valueRoles, v) !== undefined || lookup(risky, v) !== undefined) {
      const name = v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
      const key = longKey(risky, name) ?? longKey(valueRoles, name) ?? name;
      if (v.includes("=")) record(key, { ...a, value: v.slice(v.indexOf("=") + 1) });
      else if (takesValue(key)) record(key, argv[++i] ?? UNKNOWN);
      else record(key, null);
      continue;
    }
    // A cluster of short options: `-rn`, `-A3`, `-ofile`.
    for (let k = 1; k < v.length; k++) {
      const key = `-${v[k]}`;
      if (takesValue(key)) {
        const glued = v.slice(k + 1);
        record(key, glued !== "" ? { ...a, value: glued } : (argv[++i] ?? UNKNOWN));
        break;
      }
      record(key, null);
    }
  }
  return out;
}

const ORDER: readonly Effect[] = ["read", "write", "destroy", "run"];
function raise(out: { effect: Effect }, to: Effect): void {
  if (ORDER.indexOf(to) > ORDER.indexOf(out.effect)) out.effect = to;
}

function operandsByRole(
  spec: FileProgram,
  operands: readonly Arg[],
  s: Scanned,
  name: string,
  out: ProgramJudgement,
): void {
  const has = (keys: readonly string[] | undefined) =>
    (keys ?? []).some((k) => s.flags.has(k) || s.values.has(k));
  const recursive = spec.alwaysRecursive === true || has(spec.recursive);
  const local = operands.filter(
    (o) =>
      o.value !== "-" && !(o.value !== null && (name === "scp" || name === "rsync") && isRemote(o.value)),
  );
  let role = spec.operands;
  if (role === "rewrite" && has(spec.stdoutFlags)) role = "read";
  if (role === "read-first" && name === "unzip" && [..."ltvpcZz"].some((c) => s.flags.has(`-${c}`))) {
    for (const o of local.slice(0, 1)) out.reads.push(use(o));
    return;
  }
  const inPlace = s.risky.some((r) => r.option.inPlace);
  const target = (spec.targetDir ?? []).flatMap((k) => s.values.get(k) ?? []);
  if (target.length > 0 && role !== "read-first") {
    for (const o of local) {
      out.reads.push(use(o, recursive));
      if (role === "move") out.writes.push(use(o, recursive));
    }
    for (const t of target) out.writes.push(use(t, true));
    return;
  }
  switch (role) {
    case "list":
      // Names and metadata are not contents: listing is not a read of the files.
      return;
    case "read":
    case "pattern,read": {
      const files = role === "pattern,read" && !has(spec.patternOptions) ? local.slice(1) : local;
      const all =
        files.length === 0 && spec.defaultOperand !== undefined
          ? [{ ...DOT, value: spec.defaultOperand }]
          : files;
      const grepDefault =
        files.length === 0 && recursive && spec.defaultOperand === undefined && role === "pattern,read";
      for (const f of grepDefault ? [DOT] : all) {
        out.reads.push(use(f, recursive));
        if (inPlace) out.writes.push(use(f));
      }
      return;
    }
    case "write":
      for (const o of local) out.writes.push(use(o, recursive));
      return;
    case "rewrite":
      for (const o of local) {
        out.reads.push(use(o));
        out.writes.push(use(o));
      }
      return;
    case "read,write-last":
      for (const o of local.slice(0, -1)) out.reads.push(use(o, recursive));
      if (local.length > 0) out.writes.push(use(local[local.length - 1] as Arg, recursive));
      return;
    case "move":
      for (const o of local) out.writes.push(use(o, true));
      return;
    case "write-last":
      out.writes.push(use(local.length > 1 ? (local[local.length - 1] as Arg) : DOT));
      return;
    case "in,out":
      if (local[0]) out.reads.push(use(local[0]));
      if (local[1]) out.writes.push(use(local[1]));
      return;
    case "skip,write":
      for (const o of local.slice(1)) out.writes.push(use(o, recursive));
      return;
    case "write,read":
      if (local[0]) out.writes.push(use(local[0]));
      for (const o of local.slice(1)) out.reads.push(use(o, recursive));
      return;
    case "read-first":
      if (local[0]) out.reads.push(use(local[0]));
      if (spec.effect !== "read") out.writes.push(use(target[0] ?? DOT, true));
      return;
    case "none":
      return;
  }
}

/**
 * Judges what one program does with its arguments. `argv[0]` is the program. A program with a
 * grammar file (grammar/programs/) is judged by it alone when it understands every word; when it
 * does not, the tables of dangers below still report what they know (a write stays a write unit
 * that deny rules see), and the unit is marked not understood.
 */
export function judgeProgram(argv: readonly Arg[]): ProgramJudgement {
  const byGrammar = judgeByGrammar(argv);
  if (byGrammar === null) return judgeByTables(argv);
  const out = judgeByTables(argv, true);
  if (byGrammar.understood !== null && byGrammar.understood.optionGlob !== true) {
    // git's writing subcommands keep the table of git's dangers (git.ts) for what deny rules see, and curl's
    // transfers (any but a loopback GET) the risky-option table's files (`-o FILE`, `-K FILE`, `-d @FILE`).
    if (["git", "curl"].includes(basename(argv[0]?.value ?? "")))
      return { ...judgeByTables(argv), understood: byGrammar.understood, effects: byGrammar.effects };
    // Otherwise every word its grammar placed keeps its effect, and every other word that is not
    // an option is judged as a file it may read, so a deny rule on a secret still sees it.
    const placed = new Set([...byGrammar.reads, ...byGrammar.writes].map((u) => u.arg.raw));
    out.effect = "run";
    out.reads = byGrammar.reads.map(grammarRead);
    out.writes = byGrammar.writes.map((w) => use(w.arg, w.recursive));
    for (const a of argv.slice(1))
      if (!placed.has(a.raw) && !(a.value ?? "").startsWith("-") && a.pipe !== true) out.reads.push(use(a));
    out.inner = byGrammar.effects.inner;
    out.understood = byGrammar.understood;
    out.effects = byGrammar.effects;
    return out;
  }
  out.effect = byGrammar.effects.effect;
  out.reads = byGrammar.reads.map(grammarRead);
  out.writes = byGrammar.writes.map((w) => use(w.arg, w.recursive));
  out.inner = byGrammar.effects.inner;
  out.chdir = byGrammar.effects.chdir;
  // Every word placed; only a leading glob's matches are left for the disk to settle.
  out.understood = byGrammar.understood;
  out.effects = byGrammar.effects;
  return out;
}

/** The tables of dangers (and, with `sessionsOnly`, only the interactive and inline-code checks). */
function judgeByTables(argv: readonly Arg[], sessionsOnly = false): ProgramJudgement {
  const name = basename(argv[0]?.value ?? "");
  const out: ProgramJudgement = {
    effect: "read",
    reads: [],
    writes: [],
    concerns: [],
    inner: [],
    chdir: [],
    dynamic: null,
  };
  const interactive = interactiveSession(argv);
  if (interactive !== null) out.concerns.push({ mention: "interactive", reason: interactive });
  const inline = inlineCode(argv);
  if (inline !== null) out.concerns.push({ mention: null, reason: inline });
  if (sessionsOnly) return out;

  const grammar = lookup(GRAMMARS, name);
  if (grammar) {
    const g = grammar(argv);
    Object.assign(out, { effect: g.effect, dynamic: g.dynamic, inner: g.inner });
    out.reads.push(...g.reads.filter((r) => r.listing !== true).map((r) => use(r.arg, r.recursive)));
    out.writes.push(...g.writes.map((w) => use(w.arg, w.recursive === true)));
    out.concerns.push(...g.concerns);
    for (const a of argv.slice(1)) {
      if (a.glob && a.value !== null && /^[*?[]/.test(a.value) && out.dynamic === null)
        out.dynamic = `glob ${a.raw} may expand to a file name that is an option`;
    }
    return out;
  }
  if (name === "git") {
    const g = judgeGit(argv);
    out.effect = g.effect;
    out.dynamic = g.dynamic;
    out.reads.push(...g.reads.map((r) => use(r.arg, r.recursive)));
    out.writes.push(...g.writes.map((w) => use(w)));
    out.concerns.push(...g.concerns);
    out.chdir = g.chdir;
    if (g.interactive) out.concerns.push({ mention: "interactive", reason: g.interactive });
    for (const a of argv.slice(1)) {
      if (a.glob && a.value !== null && /^[*?[]/.test(a.value) && out.dynamic === null)
        out.dynamic = `glob ${a.raw} may expand to a file name that is an option`;
    }
    return out;
  }

  const spec: FileProgram | undefined = lookup(FILE_PROGRAMS, name);
  const risky = lookup(RISKY_OPTIONS, name);
  if (spec === undefined && risky === undefined && lookup(RISKY_OPERANDS, name) === undefined) {
    // A program the tables do not know: no file operands to find, only dynamic words to notice.
    out.effect = "run";
    const dyn = argv.slice(1).find((a) => a.value === null || (a.glob && /^[*?[]/.test(a.value)));
    if (dyn)
      out.dynamic = `argument ${dyn.raw} of ${name} is not static (it could be an option that writes or runs)`;
    return out;
  }
  // A dynamic word is harmless only where no argument is ever an option that writes or runs.
  const strict = !(spec?.operands === "none" && risky === undefined);
  const s = scan(argv, spec, risky, strict);
  out.dynamic = s.dynamic;
  if (spec === undefined) {
    out.effect = "run";
    if (out.dynamic === null) {
      const dyn = argv.slice(1).find((a) => a.value === null);
      if (dyn) out.dynamic = `argument ${dyn.raw} of ${name} is not static`;
    }
  } else out.effect = spec.effect as FileEffect;

  for (const r of s.risky) {
    const { option, key, value } = r;
    if (option.risk === "write") {
      raise(out, "write");
      if (option.inPlace) continue; // the operands are rewritten: see operandsByRole
      out.writes.push(use(option.file && value !== null ? value : UNKNOWN, !option.file));
    } else out.concerns.push({ mention: null, reason: `${name} ${key} ${option.why}` });
  }
  const operandRisk = lookup(RISKY_OPERANDS, name);
  if (operandRisk) {
    const hit = s.operands.find((o) => o.value === null || operandRisk.test(o.value));
    if (hit) out.concerns.push({ mention: null, reason: `\`${name} ${hit.raw}\` ${operandRisk.why}` });
  }
  if (spec === undefined) return out;

  // Options whose value is a file it reads (grep -f, sort --files0-from).
  for (const [key, values] of s.values) {
    const role = lookup(spec.values, key);
    if (role === "read") for (const v of values) out.reads.push(use(v));
  }
  if ((spec.listsFiles ?? []).some((k) => s.flags.has(k))) out.reads.push(use(UNKNOWN));

  operandsByRole(spec, s.operands, s, name, out);
  return out;
}
