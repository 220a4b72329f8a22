// Rule trees: one layer's nested rules with compiled conditions, merged across layers by
// (name, condition) and flattened once into the ordered list that evaluation walks.
import {
  type CompiledCondition,
  type ConditionError,
  compileCondition,
  type Guard,
  intersectGuards,
  isConditionError,
  OPEN_GUARD,
} from "./cel.ts";
import type { Locate } from "./config-parse.ts";
import { normalizeAction, type RuleConfig } from "./config-schema.ts";
import type { Action, PolicyLoadError, SourceLayer } from "./types.ts";

export interface RuleNode {
  name: string;
  /** The condition text as written; with `name` it is the merge key of a group. */
  conditionSource: string;
  condition: CompiledCondition;
  action?: Action;
  message?: string;
  children?: RuleNode[];
  layer: SourceLayer;
  path: string;
}

export interface FlatRule {
  name: string;
  action: Action;
  message?: string;
  conditions: CompiledCondition[];
  guard: Guard;
  /** The condition texts of the rule and its parents: what the rule names (see decide.ts). */
  mentions: string;
  layer: SourceLayer;
  path: string;
}

type ConditionProblem = { message: string; within?: { value: string; offset: number } };

/** Each problem of a condition that does not compile, with where in the condition it is. */
function conditionProblems(source: string, error: ConditionError): ConditionProblem[] {
  return [error, ...(error.more ?? [])].map(({ message, offset }) => {
    const where = offset !== undefined ? ` (at character ${offset + 1})` : "";
    const problem: ConditionProblem = { message: `bad condition \`${source}\`: ${message}${where}` };
    if (offset !== undefined) problem.within = { value: source, offset };
    return problem;
  });
}

/**
 * The condition errors of a file whose schema check failed: its rules are walked as written (anything
 * that is not a rule with a string condition is the schema's to report), so one lint run lists schema
 * and CEL problems together instead of the CEL ones only after the schema ones are fixed.
 */
export function conditionErrorsOf(
  rules: unknown,
  ctx: { path: string; locate: Locate },
  errors: PolicyLoadError[],
  yamlPath: (string | number)[] = ["rules"],
  parentName = "",
): void {
  if (!Array.isArray(rules)) return;
  rules.forEach((rule: unknown, i) => {
    if (rule === null || typeof rule !== "object") return;
    const r = rule as Record<string, unknown>;
    const at = [...yamlPath, i];
    const name = typeof r.name === "string" ? r.name : r.default !== undefined ? "Default" : `#${i + 1}`;
    const fullName = parentName ? `${parentName} > ${name}` : name;
    if (typeof r.condition === "string" && r.condition !== "") {
      const compiled = compileCondition(r.condition);
      if (isConditionError(compiled)) {
        for (const p of conditionProblems(r.condition, compiled)) {
          const pos = ctx.locate([...at, "condition"], p.within) ?? ctx.locate(at);
          errors.push({
            path: ctx.path,
            rule: fullName,
            line: pos?.line,
            column: pos?.column,
            message: p.message,
          });
        }
      }
    }
    conditionErrorsOf(r.rules, ctx, errors, [...at, "rules"], fullName);
  });
}

/** Builds one file's rule tree, collecting every problem instead of stopping at the first. */
export function buildRuleTree(
  rules: RuleConfig[],
  ctx: { layer: SourceLayer; path: string; locate: Locate },
  errors: PolicyLoadError[],
  yamlPath: (string | number)[] = ["rules"],
  parentName = "",
): RuleNode[] {
  const out: RuleNode[] = [];
  rules.forEach((rule, i) => {
    const at = [...yamlPath, i];
    const shorthand = rule.default !== undefined;
    const name = rule.name ?? (shorthand ? "Default" : `#${i + 1}`);
    const fullName = parentName ? `${parentName} > ${name}` : name;
    const fail = (message: string, key?: string, within?: { value: string; offset: number }) => {
      const pos = (key ? ctx.locate([...at, key], within) : undefined) ?? ctx.locate(at);
      errors.push({ path: ctx.path, rule: fullName, line: pos?.line, column: pos?.column, message });
    };
    if (rule.name === undefined && !shorthand) fail("rule needs a name");
    if (shorthand && rule.rules !== undefined)
      fail("`default` and `rules` cannot be used together", "default");
    if (rule.rules !== undefined && rule.action !== undefined) {
      fail("a rule with child `rules` cannot have an `action`", "action");
    }
    const actionConfig = rule.action ?? rule.default;
    if (rule.rules === undefined && actionConfig === undefined) fail("rule needs an `action` (or `rules`)");
    const conditionSource = rule.condition ?? (shorthand ? "true" : undefined);
    if (conditionSource === undefined) {
      fail("rule needs a `condition`");
      return;
    }
    const compiled = compileCondition(conditionSource);
    if (isConditionError(compiled)) {
      for (const p of conditionProblems(conditionSource, compiled)) fail(p.message, "condition", p.within);
      return;
    }
    const node: RuleNode = {
      name,
      conditionSource: conditionSource.trim(),
      condition: compiled,
      layer: ctx.layer,
      path: ctx.path,
    };
    if (rule.message !== undefined) node.message = rule.message;
    if (rule.rules !== undefined) {
      node.children = buildRuleTree(rule.rules, ctx, errors, [...at, "rules"], fullName);
    } else if (actionConfig !== undefined) {
      node.action = normalizeAction(actionConfig);
    }
    out.push(node);
  });
  return out;
}

function isCatchAll(node: RuleNode): boolean {
  return node.children === undefined && node.condition.always;
}

/**
 * Appends `later` to `into` the way pi.hitl merges layers: a parent with the same name and
 * condition as an existing group joins it, its children placed before that group's trailing
 * catch-all so a later layer can extend an allowlist; everything else is appended.
 */
export function mergeRuleTrees(into: RuleNode[], later: RuleNode[]): RuleNode[] {
  const result: RuleNode[] = into.map((n) => (n.children ? { ...n, children: [...n.children] } : n));
  for (const node of later) {
    const twin =
      node.children !== undefined
        ? result.find(
            (n) =>
              n.children !== undefined && n.name === node.name && n.conditionSource === node.conditionSource,
          )
        : undefined;
    if (!twin?.children || !node.children) {
      result.push(node);
      continue;
    }
    const kids = twin.children;
    let insertAt = kids.length;
    while (insertAt > 0 && isCatchAll(kids[insertAt - 1] as RuleNode)) insertAt--;
    const merged = mergeRuleTrees(kids.slice(0, insertAt), node.children);
    twin.children = [...merged, ...kids.slice(insertAt)];
  }
  return result;
}

/** Drops `allow` leaves: what an untrusted project config may not contribute. */
export function restrictiveOnly(nodes: RuleNode[], dropped: string[], parentName = ""): RuleNode[] {
  const out: RuleNode[] = [];
  for (const n of nodes) {
    const full = parentName ? `${parentName} > ${n.name}` : n.name;
    if (n.children) out.push({ ...n, children: restrictiveOnly(n.children, dropped, full) });
    else if (n.action === "allow") dropped.push(full);
    else out.push(n);
  }
  return out;
}

export function flattenRuleTree(
  nodes: RuleNode[],
  parents: RuleNode[] = [],
  out: FlatRule[] = [],
): FlatRule[] {
  for (const n of nodes) {
    const chain = [...parents, n];
    if (n.children) {
      flattenRuleTree(n.children, chain, out);
      continue;
    }
    if (n.action === undefined) continue;
    // `true` conditions add nothing at run time; keep the list short for the hot loop.
    const conditions = chain.map((c) => c.condition).filter((c) => !c.always);
    const rule: FlatRule = {
      name: chain.map((c) => c.name).join(" > "),
      action: n.action,
      conditions,
      guard: conditions.reduce<Guard>((g, c) => intersectGuards(g, c.guard), OPEN_GUARD),
      mentions: chain.map((c) => c.conditionSource).join("\n"),
      layer: n.layer,
      path: n.path,
    };
    if (n.message !== undefined) rule.message = n.message;
    out.push(rule);
  }
  return out;
}
