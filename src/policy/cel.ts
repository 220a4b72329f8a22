// CEL conditions: one shared environment, compiled once at load, plus a static "guard" per
// condition so evaluation can skip rules that cannot match a call's tool or command word.
import { type ASTNode, Environment } from "@marcbachmann/cel-js";
import {
  type ConditionError,
  checkPatterns,
  LINEAR_MATCHES,
  onLinearEngine,
  patternCalls,
  stringLiteral,
} from "./cel-patterns.ts";
import { linearPattern, linearTest } from "./regex-bounds.ts";

export type { ConditionError } from "./cel-patterns.ts";

/** One word of a shell command as a condition sees it (`words[i].static`, `words[i].glob`). */
export interface CelWord {
  value: string;
  raw: string;
  static: boolean;
  glob: boolean;
}

/**
 * What a condition sees. pi.hitl's `tool_source`/`tool_scope` are kept so its configs load. For a
 * bash call each simple command and each file it touches is judged on its own (docs/policy.md).
 */
export interface CelContext {
  tool: string;
  args: Record<string, unknown>;
  cwd: string;
  path: string;
  command: string;
  capability: string;
  risk: string;
  agent: string;
  tool_source: string;
  tool_scope: string;
  /** The command's words after quote removal (dynamic words as written). */
  argv: readonly string[];
  words: readonly CelWord[];
  /** Assignments before the command (`LD_PRELOAD=x ls`), and those env/sudo give it. */
  prefixes: Readonly<Record<string, string>>;
  /** The program's base name (`rm` for `/bin/rm`); a path outside the system directories as written (`./ls`). */
  program: string;
  /** The absolute directory the command runs in ("" when not known). */
  dir: string;
  /** Some word is only known at run time. */
  dynamic: boolean;
  /** It opens a session that runs what is typed into it later. */
  interactive: boolean;
  /**
   * What the call does, by its program's grammar: `read` (only looks), `write` (writes files, each judged as
   * its own write), `destroy` (deletes or overwrites), `run` (runs code: a test or build runner, a script);
   * `read`/`write` for file tools and a bash command's files; "" for other tools.
   */
  effect: string;
  /** The path is on the secret denylist (or, for a write, decides what runs later). */
  sensitive: boolean;
  /** Every file below the path is read (grep -r, cp -r, tar). */
  recursive: boolean;
  /** The path is a glob pattern: every file it could match. */
  glob: boolean;
  /**
   * The call is judged where the disk is looked at (the companion): every tree a recursive read reaches is
   * walked as the program walks it, and a reachable secret raises the call whatever a rule says. False at
   * the edge and in `explain --no-disk`, so a rule naming it allows recursive reads only after the walk.
   */
  walked: boolean;
  /** Destructive git (`branch -D`, `reset --hard`, `push --force`, `remote add` …): a rule allows it only if it names this. */
  destructive: boolean;
}

const STRING_VARS = [
  "tool",
  "cwd",
  "path",
  "command",
  "capability",
  "risk",
  "agent",
  "tool_source",
  "tool_scope",
  "program",
  "dir",
  "effect",
];
const BOOL_VARS = ["dynamic", "interactive", "sensitive", "recursive", "glob", "walked", "destructive"];

const env = (() => {
  const e = new Environment({ unlistedVariablesAreDyn: false, homogeneousAggregateLiterals: false });
  for (const name of STRING_VARS) e.registerVariable(name, "string");
  for (const name of BOOL_VARS) e.registerVariable(name, "bool");
  e.registerVariable("args", "map");
  e.registerVariable("argv", "list<string>");
  e.registerVariable("words", "list<map<string, dyn>>");
  e.registerVariable("prefixes", "map<string, string>");
  // cel-js's own `matches` runs a backtracking RegExp. Conditions reach cel-js with every `matches` call
  // renamed to this one (see onLinearEngine), so no pattern is ever run by a backtracking engine.
  e.registerFunction(`string.${LINEAR_MATCHES}(string): bool`, (text: string, pattern: string) =>
    linearTest(pattern, text),
  );
  return e;
})();

/**
 * Static requirements a condition puts on a call: `null` means unconstrained. Only facts that
 * are certain are recorded, so an index built on them can skip rules but never wrongly drop one.
 */
export interface Guard {
  tools: ReadonlySet<string> | null;
  firstWords: ReadonlySet<string> | null;
}

export const OPEN_GUARD: Guard = { tools: null, firstWords: null };

export interface CompiledCondition {
  source: string;
  evaluate: (ctx: CelContext) => boolean;
  guard: Guard;
  /** `true` literally: the catch-all a `default:` rule or a trailing `condition: "true"` uses. */
  always: boolean;
  /** Set when the whole condition is `tool == "x"` or `tool in [...]`: true exactly for these tools. */
  toolIn?: ReadonlySet<string>;
  /** Set for `<tool test> && rest`: for those tools the condition is `rest` alone. */
  toolAnd?: { tools: ReadonlySet<string>; rest: (ctx: CelContext) => boolean };
}

function intersect(a: ReadonlySet<string> | null, b: ReadonlySet<string> | null): ReadonlySet<string> | null {
  if (a === null) return b;
  if (b === null) return a;
  return new Set([...a].filter((x) => b.has(x)));
}

function union(a: ReadonlySet<string> | null, b: ReadonlySet<string> | null): ReadonlySet<string> | null {
  if (a === null || b === null) return null;
  return new Set([...a, ...b]);
}

function isId(node: ASTNode, name: string): boolean {
  return node.op === "id" && node.args === name;
}

/** The command's first word a literal pins down: `ls` for "ls" or "ls -la", none for "git". */
function firstWordOf(literal: string, exact: boolean): string | undefined {
  const m = /^([^\s]+)(\s|$)/.exec(literal);
  if (!m?.[1]) return undefined;
  if (!exact && m[2] === "") return undefined;
  return m[1];
}

export function intersectGuards(a: Guard, b: Guard): Guard {
  return { tools: intersect(a.tools, b.tools), firstWords: intersect(a.firstWords, b.firstWords) };
}

export function guardOf(node: ASTNode): Guard {
  switch (node.op) {
    case "&&": {
      const [l, r] = node.args.map(guardOf) as [Guard, Guard];
      return { tools: intersect(l.tools, r.tools), firstWords: intersect(l.firstWords, r.firstWords) };
    }
    case "||": {
      const [l, r] = node.args.map(guardOf) as [Guard, Guard];
      // A branch may match on either side, so a union only holds when both sides constrain.
      const tools = union(l.tools, r.tools);
      const words = union(l.firstWords, r.firstWords);
      const lTotal = l.tools !== null || l.firstWords !== null;
      const rTotal = r.tools !== null || r.firstWords !== null;
      if (!lTotal || !rTotal) return OPEN_GUARD;
      // Mixed constraints (one side on tool, the other on command) union to null: unconstrained.
      return { tools, firstWords: words };
    }
    case "==": {
      const [l, r] = node.args;
      const lit = stringLiteral(r) ?? stringLiteral(l);
      const other = stringLiteral(r) !== undefined ? l : r;
      if (lit === undefined) return OPEN_GUARD;
      if (isId(other, "tool")) return { tools: new Set([lit]), firstWords: null };
      if (isId(other, "command")) {
        const w = firstWordOf(lit, true);
        return { tools: null, firstWords: w === undefined ? null : new Set([w]) };
      }
      return OPEN_GUARD;
    }
    case "in": {
      const [l, r] = node.args;
      if (isId(l, "tool") && r.op === "list") {
        const lits = r.args.map(stringLiteral);
        if (lits.every((x): x is string => x !== undefined))
          return { tools: new Set(lits), firstWords: null };
      }
      return OPEN_GUARD;
    }
    case "rcall": {
      const [fn, target, callArgs] = node.args;
      const lit = callArgs[0] ? stringLiteral(callArgs[0]) : undefined;
      if (fn === "startsWith" && isId(target, "command") && lit !== undefined && callArgs.length === 1) {
        const w = firstWordOf(lit, false);
        return { tools: null, firstWords: w === undefined ? null : new Set([w]) };
      }
      return OPEN_GUARD;
    }
    default:
      return OPEN_GUARD;
  }
}

// A direct JS translation of the condition shapes policies are made of (string variables and
// literals, ==, !=, +, in [...], startsWith/endsWith/contains/matches, &&, ||, !). cel-js
// interprets the AST per call (~0.3 µs for `tool == "x"`, and `matches` builds a new RegExp
// every time); a 1,000-rule policy evaluates hundreds of conditions per bash command. The
// translation uses the very operations cel-js's own overloads use (===, startsWith, endsWith,
// includes, new RegExp(p).test), so results are identical; anything else stays with cel-js.
type Fast<T> = (ctx: CelContext) => T;

/** Thrown when a variable is not the string the context type promises: cel-js decides then. */
class NotFast extends Error {}

function str(v: unknown): string {
  if (typeof v !== "string") throw new NotFast();
  return v;
}

// One reader per variable, so each property load sees a single name (a keyed `ctx[name]`
// shared by every rule is a megamorphic lookup).
const READ_VAR: ReadonlyMap<string, Fast<string>> = new Map<string, Fast<string>>([
  ["tool", (c) => str(c.tool)],
  ["cwd", (c) => str(c.cwd)],
  ["path", (c) => str(c.path)],
  ["command", (c) => str(c.command)],
  ["capability", (c) => str(c.capability)],
  ["risk", (c) => str(c.risk)],
  ["agent", (c) => str(c.agent)],
  ["tool_source", (c) => str(c.tool_source)],
  ["tool_scope", (c) => str(c.tool_scope)],
  ["program", (c) => str(c.program)],
  ["dir", (c) => str(c.dir)],
  ["effect", (c) => str(c.effect)],
]);

function bool(v: unknown): boolean {
  if (typeof v !== "boolean") throw new NotFast();
  return v;
}

const READ_BOOL: ReadonlyMap<string, Fast<boolean>> = new Map<string, Fast<boolean>>([
  ["dynamic", (c) => bool(c.dynamic)],
  ["interactive", (c) => bool(c.interactive)],
  ["sensitive", (c) => bool(c.sensitive)],
  ["recursive", (c) => bool(c.recursive)],
  ["glob", (c) => bool(c.glob)],
  ["walked", (c) => bool(c.walked)],
  ["destructive", (c) => bool(c.destructive)],
]);

/** `s.startsWith(p, at)` for `at <= s.length`; V8's startsWith is ~3x slower than this. */
function startsAt(s: string, p: string, at: number): boolean {
  return s.lastIndexOf(p, at) === at;
}

function fastString(node: ASTNode): Fast<string> | null {
  switch (node.op) {
    case "value": {
      const v = node.args;
      return typeof v === "string" ? () => v : null;
    }
    case "id":
      return READ_VAR.get(node.args) ?? null;
    case "+": {
      const l = fastString(node.args[0]);
      const r = fastString(node.args[1]);
      return l && r ? (ctx) => l(ctx) + r(ctx) : null;
    }
    default:
      return null;
  }
}

/** The operands of a chain of string `+`, left to right; null when one is not a fast string. */
function concatPieces(node: ASTNode): Fast<string>[] | null {
  if (node.op !== "+") {
    const f = fastString(node);
    return f === null ? null : [f];
  }
  const l = concatPieces(node.args[0]);
  const r = concatPieces(node.args[1]);
  return l === null || r === null ? null : [...l, ...r];
}

function fastBool(node: ASTNode): Fast<boolean> | null {
  switch (node.op) {
    case "value": {
      const v = node.args;
      return typeof v === "boolean" ? () => v : null;
    }
    case "id":
      return READ_BOOL.get(node.args) ?? null;
    case "&&":
    case "||": {
      const l = fastBool(node.args[0]);
      const r = fastBool(node.args[1]);
      if (!l || !r) return null;
      return node.op === "&&" ? (ctx) => l(ctx) && r(ctx) : (ctx) => l(ctx) || r(ctx);
    }
    case "!_": {
      const x = fastBool(node.args);
      return x ? (ctx) => !x(ctx) : null;
    }
    case "==":
    case "!=": {
      const l = fastString(node.args[0]);
      const r = fastString(node.args[1]);
      if (!l || !r) return null;
      const lit = stringLiteral(node.args[1]);
      if (lit !== undefined) return node.op === "==" ? (ctx) => l(ctx) === lit : (ctx) => l(ctx) !== lit;
      return node.op === "==" ? (ctx) => l(ctx) === r(ctx) : (ctx) => l(ctx) !== r(ctx);
    }
    case "in": {
      const x = fastString(node.args[0]);
      const list = node.args[1];
      if (!x || list.op !== "list") return null;
      const items = list.args.map(stringLiteral);
      if (!items.every((i): i is string => i !== undefined)) return null;
      return (ctx) => items.includes(x(ctx));
    }
    case "rcall": {
      const [fn, target, callArgs] = node.args;
      const t = fastString(target);
      const a = callArgs.length === 1 && callArgs[0] ? fastString(callArgs[0]) : null;
      if (!t || !a) return null;
      if (fn === "startsWith") {
        // `path.startsWith(cwd + "/dir/")` without building the prefix: a concatenated string
        // is flattened before the comparison, which dominated read and write decisions.
        const pieces = concatPieces(callArgs[0] as ASTNode);
        if (pieces !== null && pieces.length > 1)
          return (ctx) => {
            const s = t(ctx);
            let at = 0;
            for (const piece of pieces) {
              const p = piece(ctx);
              // `at` never passes s.length: each earlier piece matched inside s.
              if (!startsAt(s, p, at)) return false;
              at += p.length;
            }
            return true;
          };
        return (ctx) => startsAt(t(ctx), a(ctx), 0);
      }
      if (fn === "endsWith") return (ctx) => t(ctx).endsWith(a(ctx));
      if (fn === "contains") return (ctx) => t(ctx).includes(a(ctx));
      const pattern = callArgs[0] ? stringLiteral(callArgs[0]) : undefined;
      if (fn === "matches" && pattern !== undefined) {
        // RE2, never a backtracking RegExp: compileCondition refuses any pattern this cannot run.
        const re = linearPattern(pattern);
        return re.ok ? (ctx) => re.test(t(ctx)) : null;
      }
      return null;
    }
    default:
      return null;
  }
}

/** The tools a condition that only tests `tool` admits; null for any other condition. */
function toolTest(node: ASTNode): ReadonlySet<string> | null {
  if (node.op === "==") {
    const [l, r] = node.args;
    const lit = stringLiteral(r) ?? stringLiteral(l);
    const other = stringLiteral(r) !== undefined ? l : r;
    return lit !== undefined && isId(other, "tool") ? new Set([lit]) : null;
  }
  if (node.op === "in" && isId(node.args[0], "tool") && node.args[1].op === "list") {
    const lits = node.args[1].args.map(stringLiteral);
    return lits.every((x): x is string => x !== undefined) ? new Set(lits) : null;
  }
  return null;
}

/** Parses and type-checks a condition; the result must be a bool. */
export function compileCondition(
  source: string,
  options: { fast?: boolean } = {},
): CompiledCondition | ConditionError {
  let parsed: ReturnType<typeof env.parse>;
  try {
    parsed = env.parse(source);
  } catch (error) {
    return celError(error);
  }
  const checked = env.check(source);
  if (!checked.valid) return celError(checked.error);
  if (checked.type !== "bool" && checked.type !== "dyn") {
    return { message: `condition must be a bool, but it is a ${checked.type}` };
  }
  const calls = patternCalls(parsed.ast);
  const [first, ...more] = checkPatterns(source, calls);
  if (first) return more.length > 0 ? { ...first, more } : first;
  let fn = parsed;
  if (calls.length > 0) {
    const renamed = onLinearEngine(source, calls);
    if (typeof renamed !== "string") return renamed;
    fn = env.parse(renamed);
  }
  const interpreted = (ctx: CelContext): boolean => {
    const value: unknown = fn(ctx as unknown as Record<string, unknown>);
    if (typeof value !== "boolean") throw new Error(`condition returned ${typeof value}, not a bool`);
    return value;
  };
  const fast = options.fast === false ? null : fastBool(parsed.ast);
  const toolIn = toolTest(parsed.ast);
  const guarded = parsed.ast.op === "&&" && options.fast !== false ? toolTest(parsed.ast.args[0]) : null;
  const rest = guarded !== null && parsed.ast.op === "&&" ? fastBool(parsed.ast.args[1]) : null;
  return {
    ...(toolIn === null ? {} : { toolIn }),
    ...(guarded === null || rest === null
      ? {}
      : {
          toolAnd: {
            tools: guarded,
            // With the tool test true, `a && b` is b; cel-js decides when b is not fast after all.
            rest: (ctx: CelContext) => {
              try {
                return rest(ctx);
              } catch (error) {
                if (error instanceof NotFast) return interpreted(ctx);
                throw error;
              }
            },
          },
        }),
    source,
    guard: guardOf(parsed.ast),
    always: parsed.ast.op === "value" && parsed.ast.args === true,
    evaluate:
      fast === null
        ? interpreted
        : (ctx) => {
            try {
              return fast(ctx);
            } catch (error) {
              if (error instanceof NotFast) return interpreted(ctx);
              throw error;
            }
          },
  };
}

function celError(error: unknown): ConditionError {
  if (error instanceof Error) {
    const e = error as Error & { summary?: string; range?: { start: number } };
    return { message: e.summary ?? e.message.split("\n")[0] ?? e.message, offset: e.range?.start };
  }
  return { message: String(error) };
}

export function isConditionError(x: CompiledCondition | ConditionError): x is ConditionError {
  return !("evaluate" in x);
}

/** CEL has no JS numbers: integral values become int (bigint) so `args.n == 1` holds. */
export function toCelValue(value: unknown, depth = 0): unknown {
  if (depth > 32) return null;
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map((v) => toCelValue(v, depth + 1));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toCelValue(v, depth + 1);
    return out;
  }
  return value === undefined ? null : value;
}
