// The one place that touches mvdan-sh: parsing to its AST, node kinds, byte offsets, and the
// redirect operator codes (probed at load, so a rebuilt package cannot silently shift them).
// Evaluated first (a side-effect import is never reordered), before mvdan-sh changes the limit.
import "./stack-trace-limit.ts";
import sh, { type ShNode } from "mvdan-sh";
import { errorWithLimit, savedStackTraceLimit } from "./stack-trace-limit.ts";

errorWithLimit.stackTraceLimit = savedStackTraceLimit;

const { syntax } = sh;
const parser = syntax.NewParser(syntax.Variant(syntax.LangBash));

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
  return syntax.NodeType(node);
}

export function walk(node: ShNode, visit: (node: ShNode) => void): void {
  syntax.Walk(node, (n) => {
    if (n !== null) visit(n);
    return true;
  });
}

/** Parses a bash script; throws a plain Error with the parser's message on bad syntax. */
export function parseBash(src: string): ShNode {
  try {
    return parser.Parse(src, "");
  } catch (error) {
    const e = error as { message?: unknown; Error?: () => string };
    const message =
      typeof e.Error === "function" ? e.Error() : typeof e.message === "string" ? e.message : String(error);
    throw new Error(message);
  }
}

function probeOp(src: string): number {
  const file = parser.Parse(src, "") as ShNode & { Stmts: ShStmt[] };
  const op = file.Stmts[0]?.Redirs[0]?.Op;
  if (op === undefined) throw new Error(`mvdan-sh: cannot probe redirect operator in ${JSON.stringify(src)}`);
  return op;
}

export const RedirOp = {
  out: probeOp("a > b"),
  append: probeOp("a >> b"),
  clobber: probeOp("a >| b"),
  all: probeOp("a &> b"),
  appendAll: probeOp("a &>> b"),
  readWrite: probeOp("a <> b"),
  dupOut: probeOp("a >& b"),
  dupIn: probeOp("a <& b"),
  in: probeOp("a < b"),
  hdoc: probeOp("a <<E\nE\n"),
  dashHdoc: probeOp("a <<-E\nE\n"),
  word: probeOp("a <<< b"),
} as const;

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
