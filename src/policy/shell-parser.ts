// The one place that touches mvdan-sh: parsing to its AST, node kinds, byte offsets, and the
// redirect operator codes (probed on first use, so a rebuilt package cannot silently shift them).
// Nothing here touches mvdan-sh at import time: workerd forbids timers in global scope and the
// GopherJS runtime starts one, so the edge loads the real module inside a handler (see
// src/edge/shims/mvdan-sh-deferred.ts) and the parser is built on first use.
// Evaluated first (a side-effect import is never reordered), before mvdan-sh changes the limit.
import "./stack-trace-limit.ts";
import sh, { type ShNode } from "mvdan-sh";
import { errorWithLimit, savedStackTraceLimit } from "./stack-trace-limit.ts";

errorWithLimit.stackTraceLimit = savedStackTraceLimit;

type Syntax = (typeof sh)["syntax"];
let loaded: { syntax: Syntax; parser: ReturnType<Syntax["NewParser"]> } | undefined;

function mvdan() {
  if (!loaded) {
    const { syntax } = sh;
    loaded = { syntax, parser: syntax.NewParser(syntax.Variant(syntax.LangBash)) };
    errorWithLimit.stackTraceLimit = savedStackTraceLimit;
  }
  return loaded;
}

export type { ShNode };

export interface ShWord extends ShNode {
  Parts: ShNode[];
}
export interface ShLit extends ShNode {
  Value: string;
}
export interface ShQuoted extends ShNode {
  Value: string;
  Dollar: boolean;
  Parts: ShNode[];
}
export interface ShAssign extends ShNode {
  Name: ShLit | null;
  Value: ShWord | null;
  Naked: boolean;
}
export interface ShCallExpr extends ShNode {
  Assigns: ShAssign[];
  Args: ShWord[];
}
export interface ShDeclClause extends ShNode {
  Variant: ShLit;
  Args: ShAssign[];
}
export interface ShRedirect extends ShNode {
  Op: number;
  N: ShLit | null;
  Word: ShWord | null;
  Hdoc: ShWord | null;
}
export interface ShStmt extends ShNode {
  Cmd: ShNode | null;
  Redirs: ShRedirect[];
}

export function nodeType(node: ShNode): string {
  return mvdan().syntax.NodeType(node);
}

export function walk(node: ShNode, visit: (node: ShNode) => void): void {
  mvdan().syntax.Walk(node, (n) => {
    if (n !== null) visit(n);
    return true;
  });
}

/** Parses a bash script; throws a plain Error with the parser's message on bad syntax. */
export function parseBash(src: string): ShNode {
  try {
    return mvdan().parser.Parse(src, "");
  } catch (error) {
    const e = error as { message?: unknown; Error?: () => string };
    const message =
      typeof e.Error === "function" ? e.Error() : typeof e.message === "string" ? e.message : String(error);
    throw new Error(message);
  }
}

function probeOp(src: string): number {
  const file = mvdan().parser.Parse(src, "") as ShNode & { Stmts: ShStmt[] };
  const op = file.Stmts[0]?.Redirs[0]?.Op;
  if (op === undefined) throw new Error(`mvdan-sh: cannot probe redirect operator in ${JSON.stringify(src)}`);
  return op;
}

const redirSources = {
  out: "a > b",
  append: "a >> b",
  clobber: "a >| b",
  all: "a &> b",
  appendAll: "a &>> b",
  readWrite: "a <> b",
  dupOut: "a >& b",
  dupIn: "a <& b",
  in: "a < b",
  hdoc: "a <<E\nE\n",
  dashHdoc: "a <<-E\nE\n",
  word: "a <<< b",
} as const;

let probed: Record<keyof typeof redirSources, number> | undefined;

/** Redirect operator codes, probed from the parser on first use. */
export function redirOps(): Readonly<Record<keyof typeof redirSources, number>> {
  if (!probed) {
    const entries = Object.entries(redirSources).map(([name, src]) => [name, probeOp(src)] as const);
    probed = Object.fromEntries(entries) as Record<keyof typeof redirSources, number>;
  }
  return probed;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Source text of a node. mvdan/sh offsets are UTF-8 byte offsets, not UTF-16 indexes. */
export function sourceOf(src: string, node: ShNode): string {
  const start = node.Pos().Offset();
  const end = node.End().Offset();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: checking for pure ASCII on purpose
  if (/^[\u0000-\u007f]*$/.test(src)) return src.slice(start, end);
  return decoder.decode(encoder.encode(src).subarray(start, end));
}
