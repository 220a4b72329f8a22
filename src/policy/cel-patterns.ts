// The `matches()` calls of a CEL condition: each pattern checked for RE2 at load (every refused one
// reported, pointing into the literal), and the condition rewritten so cel-js evaluates them on RE2 too.
import type { ASTNode } from "@marcbachmann/cel-js";
import { linearPattern } from "./regex-bounds.ts";

/** A condition that did not compile: what is wrong and where (cel.ts reports these too). */
export interface ConditionError {
  message: string;
  /** 0-based offset of the problem inside the condition text, when the library reports one. */
  offset?: number;
  /** Further problems of the same condition (every refused pattern is reported in one pass). */
  more?: ConditionError[];
}

/** The name `matches` calls are evaluated under by cel-js: RE2 instead of its RegExp. */
export const LINEAR_MATCHES = "matchesLinear";

export function stringLiteral(node: ASTNode): string | undefined {
  return node.op === "value" && typeof node.args === "string" ? node.args : undefined;
}

export interface PatternCall {
  /** The `rcall` node: `receiver.matches(pattern)`. */
  call: ASTNode;
  name: string;
  /** The argument node, and its text when it is a literal. */
  argument: ASTNode | undefined;
  pattern: string | undefined;
}

/** Every `matches` call of a condition (and calls of the engine's own name, which behave the same). */
export function patternCalls(ast: ASTNode): PatternCall[] {
  const out: PatternCall[] = [];
  const stack: unknown[] = [ast];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    if (node === null || typeof node !== "object" || !("op" in node)) continue;
    const n = node as ASTNode;
    if (n.op === "rcall" && (n.args[0] === "matches" || n.args[0] === LINEAR_MATCHES)) {
      const argument = n.args[2][n.args[2].length - 1];
      out.push({
        call: n,
        name: n.args[0],
        argument,
        pattern: argument ? stringLiteral(argument) : undefined,
      });
    }
    stack.push(n.args);
  }
  return out.sort((a, b) => a.call.start - b.call.start);
}

/**
 * Each pattern must be a literal that RE2 compiles; all are checked, so one pass reports every refused
 * pattern. The offset points at the refused piece inside the literal as written when it can be found.
 */
export function checkPatterns(source: string, calls: readonly PatternCall[]): ConditionError[] {
  const errors: ConditionError[] = [];
  for (const { call, argument, pattern } of calls) {
    if (pattern === undefined || argument === undefined) {
      errors.push({
        message: "matches() needs a literal pattern (a string in quotes)",
        offset: argument?.start ?? call.start,
      });
      continue;
    }
    const compiled = linearPattern(pattern);
    if (compiled.ok) continue;
    const literal = source.slice(argument.start, argument.end);
    const fragment = compiled.fragment ?? "";
    const at = fragment === "" ? -1 : literal.indexOf(fragment);
    const escaped = at === -1 && fragment !== "" ? literal.indexOf(fragment.replaceAll("\\", "\\\\")) : -1;
    const inside = at !== -1 ? at : escaped !== -1 ? escaped : 0;
    errors.push({ message: compiled.message, offset: argument.start + inside });
  }
  return errors;
}

/**
 * The condition text with every `matches` call renamed to the RE2-backed function, found from the
 * parsed positions (`receiver.matches(` right before the literal), so nothing inside strings changes.
 */
export function onLinearEngine(source: string, calls: readonly PatternCall[]): string | ConditionError {
  let out = source;
  // Right to left, so earlier offsets stay valid.
  for (const { call, name: fn, argument } of [...calls].reverse()) {
    if (fn !== "matches" || argument === undefined) continue;
    const before = /\.\s*matches\s*\(\s*$/.exec(out.slice(0, argument.start));
    if (before === null) {
      return { message: 'write a pattern test as `text.matches("pattern")`', offset: call.start };
    }
    const name = before.index + before[0].indexOf("matches");
    out = `${out.slice(0, name)}${LINEAR_MATCHES}${out.slice(name + "matches".length)}`;
  }
  return out;
}
