// CEL conditions: one shared environment, compiled once at load, plus a static "guard" per
// condition so evaluation can skip rules that cannot match a call's tool or command word.
import { type ASTNode, Environment } from "@marcbachmann/cel-js";

/** What a condition sees. pi.hitl's `tool_source`/`tool_scope` are kept so its configs load. */
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
];

const env = (() => {
  const e = new Environment({ unlistedVariablesAreDyn: false, homogeneousAggregateLiterals: false });
  for (const name of STRING_VARS) e.registerVariable(name, "string");
  e.registerVariable("args", "map");
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
}

export interface ConditionError {
  message: string;
  /** 0-based offset of the problem inside the condition text, when the library reports one. */
  offset?: number;
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

function stringLiteral(node: ASTNode): string | undefined {
  return node.op === "value" && typeof node.args === "string" ? node.args : undefined;
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

/** Parses and type-checks a condition; the result must be a bool. */
export function compileCondition(source: string): CompiledCondition | ConditionError {
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
  const fn = parsed;
  return {
    source,
    guard: guardOf(parsed.ast),
    always: parsed.ast.op === "value" && parsed.ast.args === true,
    evaluate: (ctx) => {
      const value: unknown = fn(ctx as unknown as Record<string, unknown>);
      if (typeof value !== "boolean") throw new Error(`condition returned ${typeof value}, not a bool`);
      return value;
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
