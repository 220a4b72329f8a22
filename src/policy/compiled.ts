// The compiled policy: flat rule lists per precedence tier, indexed for the per-call loop.
import type { CompiledCondition } from "./cel.ts";
import type { FutureCommandConfig } from "./config-schema.ts";
import type { FlatRule } from "./rule-tree.ts";
import type { Action, LayerName, PolicyLoadError, PolicyMode, SourceLayer } from "./types.ts";

export interface RuleSet {
  rules: readonly FlatRule[];
  /** Rules that can match a (tool, first command word) pair, in order; filled lazily. */
  byKey: Map<string, readonly Candidate[]>;
  /** Indices of the rules whose guard names a first word, by word; and of those that name none. */
  byWord: ReadonlyMap<string, readonly number[]>;
  anyWord: readonly number[];
}

/** A rule that can match a call's tool, with the conditions still to check for that tool. */
export interface Candidate {
  rule: FlatRule;
  conditions: readonly Check[];
}
export type Check = Pick<CompiledCondition, "evaluate">;

export interface LoadedSource {
  layer: SourceLayer;
  path: string;
  trusted: boolean;
  /** Allow rules of an untrusted project config, which are not applied. */
  ignoredAllowRules: string[];
}

export interface CompiledPolicy {
  /** agent + user (+ trusted project) merged pi.hitl-style: one first-match list. */
  local: RuleSet;
  /** The project's own rules; only a restrictive first match counts (it may never loosen). */
  project: RuleSet | null;
  /** Account policy from the edge: a match here decides. */
  account: RuleSet | null;
  defaultAction: Exclude<Action, "hidden">;
  defaultFrom: string;
  headlessAsk: "deny" | "allow";
  /** What an ask becomes when a person could answer: asked (prompt), denied (strict), run (permissive). */
  mode: PolicyMode;
  hiddenTools: ReadonlyMap<string, { layer: SourceLayer; path: string }>;
  confirmTimeoutMs: number | null;
  /** Precognition command classes from trusted layers (an untrusted project file cannot add one). */
  futureCommands: readonly FutureCommandConfig[];
  /** Whether a session may turn gating off (`/permissions off`): false when any layer says `sessions.allow_ungated: false`. */
  allowUngated: boolean;
  /** The layer file that forbade it, for the message a person sees. */
  ungatedForbiddenBy: string | null;
  /** The file that made Airlock the agent's only judge (`mode: sole`); null in the default, composed mode. */
  soleFrom: string | null;
  sources: readonly LoadedSource[];
}

const MAX_INDEX_KEYS = 4096;

export function makeRuleSet(rules: FlatRule[]): RuleSet {
  const byWord = new Map<string, number[]>();
  const anyWord: number[] = [];
  rules.forEach((r, i) => {
    if (r.guard.firstWords === null) anyWord.push(i);
    else
      for (const w of r.guard.firstWords) {
        const list = byWord.get(w);
        if (list === undefined) byWord.set(w, [i]);
        else list.push(i);
      }
  });
  return { rules, byKey: new Map(), byWord, anyWord };
}

/** The rules that may apply to a first word, in rule order: those naming it merged with those naming none. */
function rulesForWord(set: RuleSet, firstWord: string): FlatRule[] {
  const named = set.byWord.get(firstWord) ?? [];
  const any = set.anyWord;
  const out: FlatRule[] = [];
  let a = 0;
  let b = 0;
  while (a < named.length || b < any.length) {
    const next =
      b >= any.length || (a < named.length && (named[a] as number) < (any[b] as number))
        ? (named[a++] as number)
        : (any[b++] as number);
    out.push(set.rules[next] as FlatRule);
  }
  return out;
}

/** What is left of a rule's conditions once the call's tool is known. */
function residual(conditions: readonly CompiledCondition[], tool: string): Check[] {
  const out: Check[] = [];
  for (const c of conditions) {
    if (c.toolIn?.has(tool)) continue;
    out.push(c.toolAnd?.tools.has(tool) ? { evaluate: c.toolAnd.rest } : c);
  }
  return out;
}

/**
 * The rules whose static guard admits this tool and first word, keeping their order. A
 * condition that only tests the tool (`tool == "bash"` of a nested rule's parent) is true for
 * every call with this key, so it is dropped, and `tool == "read" && rest` becomes `rest`.
 */
export function candidates(set: RuleSet, tool: string, firstWord: string): readonly Candidate[] {
  const key = `${tool}\u0000${firstWord}`;
  let list = set.byKey.get(key);
  if (list === undefined) {
    // Indexed by word first: a new command word costs the rules that may name it, not every rule.
    list = rulesForWord(set, firstWord)
      .filter((r) => r.guard.tools === null || r.guard.tools.has(tool))
      .map((rule) => ({ rule, conditions: residual(rule.conditions, tool) }));
    // Unbounded distinct command words must not grow memory without limit.
    if (set.byKey.size >= MAX_INDEX_KEYS) set.byKey.clear();
    set.byKey.set(key, list);
  }
  return list;
}

export function layerOf(layer: SourceLayer): LayerName {
  return layer;
}

/** A policy compiled from its sources, or every problem that kept it from compiling. */
export type CompileResult = { ok: true; policy: CompiledPolicy } | { ok: false; errors: PolicyLoadError[] };
