// A hand-written walk over mvdan/sh's raw GopherJS AST (see shell-parser.ts for why it is read
// raw). It visits every node in syntax.Walk's order and records each statement and assignment,
// with the words and redirects the analysis reads, as plain objects. Every node type of the
// bash grammar is listed; an unknown type or a field that is not where it should be throws, and
// the analysis reports the command as unparsable (ask): nothing is ever silently skipped.

/** A Go value as GopherJS represents it: fields under their Go names, the type on the constructor. */
export interface RawNode {
  readonly constructor: { readonly string?: unknown; readonly nil?: unknown };
  readonly [field: string]: unknown;
  Pos(): { Offset(): number };
  End(): { Offset(): number };
}
interface RawSlice {
  readonly $array: ArrayLike<unknown>;
  readonly $offset: number;
  readonly $length: number;
}

export type WordPart =
  | { type: "lit"; value: string }
  | { type: "sgl"; value: string; dollar: boolean }
  | { type: "dbl"; dollar: boolean; parts: WordPart[] }
  /** Parameter, command, arithmetic or process substitution, extended glob, brace expansion. */
  | { type: "dynamic" };

/** Offsets are into the script (UTF-16 indexes, converted from mvdan/sh's UTF-8 byte offsets). */
export interface Word {
  parts: WordPart[];
  start: number;
  end: number;
}
export interface Redirect {
  op: number;
  word: Word | null;
  hdoc: Word | null;
  start: number;
  end: number;
}
export type Command =
  | { type: "call"; args: Word[] }
  | { type: "decl"; variant: string; args: { start: number; end: number }[] }
  | { type: "other" };
export interface StmtEvent {
  kind: "stmt";
  start: number;
  redirs: Redirect[];
  cmd: Command | null;
}
export type ScriptEvent = StmtEvent | { kind: "assign"; start: number; end: number };

export interface ParsedScript {
  readonly src: string;
  /** Statements and assignments in pre-order, as syntax.Walk would visit them. */
  readonly events: ScriptEvent[];
}

class ShapeError extends Error {}

const decoder = new TextDecoder();
// biome-ignore lint/suspicious/noControlCharactersInRegex: checking for pure ASCII on purpose
const ASCII = /^[\u0000-\u007f]*$/;

/** GopherJS keeps Go strings as one char per UTF-8 byte. */
function goString(value: unknown): string {
  if (typeof value !== "string") throw new ShapeError("mvdan-sh: expected a string field");
  if (ASCII.test(value)) return value;
  const bytes = new Uint8Array(value.length);
  for (let i = 0; i < value.length; i++) bytes[i] = value.charCodeAt(i);
  return decoder.decode(bytes);
}

function typeOf(node: RawNode): string {
  const t = node.constructor.string;
  if (typeof t !== "string") throw new ShapeError("mvdan-sh: node without a type");
  return t;
}

/** A pointer or interface field: null when nil. Throws when the field does not exist. */
function child(node: RawNode, field: string): RawNode | null {
  const v = node[field];
  if (typeof v !== "object" || v === null) throw new ShapeError(`mvdan-sh: no field ${field}`);
  const n = v as RawNode;
  // A nil interface has no Go type; a nil pointer is its type's `nil` value.
  if (typeof n.constructor?.string !== "string" || n === n.constructor.nil) return null;
  return n;
}

function children(node: RawNode, field: string): RawNode[] {
  const s = node[field] as RawSlice | undefined;
  if (typeof s !== "object" || s === null || typeof s.$length !== "number")
    throw new ShapeError(`mvdan-sh: no list ${field}`);
  const out: RawNode[] = [];
  for (let i = 0; i < s.$length; i++) {
    const n = s.$array[s.$offset + i] as RawNode;
    if (typeof n !== "object" || n === null || typeof n.constructor?.string !== "string")
      throw new ShapeError(`mvdan-sh: bad element in ${field}`);
    out.push(n);
  }
  return out;
}

/** Bytes of a code point in UTF-8; a lone surrogate becomes U+FFFD, also 3 bytes. */
function utf8Size(c: number): number {
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

function utf8Length(src: string): number {
  let n = 0;
  for (let i = 0; i < src.length; i++) {
    const size = utf8Size(src.codePointAt(i) as number);
    n += size;
    if (size === 4) i++;
  }
  return n;
}

class Walker {
  readonly events: ScriptEvent[] = [];
  readonly #src: string;
  /** UTF-8 byte offset → UTF-16 index; only built for scripts that are not pure ASCII. */
  #index: Uint32Array | null = null;

  constructor(src: string) {
    this.#src = src;
    if (!ASCII.test(src)) {
      const index = new Uint32Array(utf8Length(src) + 1);
      let byte = 0;
      for (let i = 0; i < src.length; i++) {
        const size = utf8Size(src.codePointAt(i) as number);
        for (let k = 0; k < size; k++) index[byte + k] = i;
        byte += size;
        if (size === 4) i++; // the low surrogate is part of the same code point
      }
      index[byte] = src.length;
      this.#index = index;
    }
  }

  #offset(byte: number): number {
    return this.#index === null ? byte : (this.#index[byte] ?? this.#src.length);
  }
  start(node: RawNode): number {
    return this.#offset(node.Pos().Offset());
  }
  end(node: RawNode): number {
    return this.#offset(node.End().Offset());
  }

  stmts(node: RawNode, field: string): void {
    for (const s of children(node, field)) this.stmt(s);
  }

  stmt(node: RawNode): void {
    if (typeOf(node) !== "*syntax.Stmt") throw new ShapeError(`mvdan-sh: ${typeOf(node)} is not a statement`);
    // Pushed before its children so nested statements follow it, as in syntax.Walk.
    const event: StmtEvent = { kind: "stmt", start: this.start(node), redirs: [], cmd: null };
    this.events.push(event);
    const cmd = child(node, "Cmd");
    if (cmd !== null) event.cmd = this.command(cmd);
    for (const r of children(node, "Redirs")) {
      const n = child(r, "N");
      if (n !== null) this.node(n);
      const word = child(r, "Word");
      const hdoc = child(r, "Hdoc");
      if (typeof r.Op !== "number") throw new ShapeError("mvdan-sh: redirect without an operator");
      event.redirs.push({
        op: r.Op,
        word: word === null ? null : this.word(word),
        hdoc: hdoc === null ? null : this.word(hdoc),
        start: this.start(r),
        end: this.end(r),
      });
    }
  }

  command(node: RawNode): Command {
    const type = typeOf(node);
    if (type === "*syntax.CallExpr") {
      for (const a of children(node, "Assigns")) this.assign(a);
      return { type: "call", args: children(node, "Args").map((w) => this.word(w)) };
    }
    if (type === "*syntax.DeclClause") {
      const variant = child(node, "Variant");
      if (variant === null) throw new ShapeError("mvdan-sh: declaration without a name");
      const args = children(node, "Args");
      for (const a of args) this.assign(a);
      return {
        type: "decl",
        variant: goString(variant.Value),
        args: args.map((a) => ({ start: this.start(a), end: this.end(a) })),
      };
    }
    this.node(node);
    return { type: "other" };
  }

  assign(node: RawNode): void {
    if (typeOf(node) !== "*syntax.Assign")
      throw new ShapeError(`mvdan-sh: ${typeOf(node)} is not an assignment`);
    this.events.push({ kind: "assign", start: this.start(node), end: this.end(node) });
    this.optional(node, "Name");
    this.optional(node, "Value");
    this.optional(node, "Index");
    const array = child(node, "Array");
    if (array !== null) {
      for (const e of children(array, "Elems")) {
        this.optional(e, "Index");
        this.optional(e, "Value");
      }
    }
  }

  word(node: RawNode): Word {
    if (typeOf(node) !== "*syntax.Word") throw new ShapeError(`mvdan-sh: ${typeOf(node)} is not a word`);
    const parts = children(node, "Parts").map((p) => this.part(p));
    return { parts, start: this.start(node), end: this.end(node) };
  }

  part(node: RawNode): WordPart {
    switch (typeOf(node)) {
      case "*syntax.Lit":
        return { type: "lit", value: goString(node.Value) };
      case "*syntax.SglQuoted":
        return { type: "sgl", value: goString(node.Value), dollar: node.Dollar === true };
      case "*syntax.DblQuoted":
        return {
          type: "dbl",
          dollar: node.Dollar === true,
          parts: children(node, "Parts").map((p) => this.part(p)),
        };
      default:
        this.node(node);
        return { type: "dynamic" };
    }
  }

  optional(node: RawNode, field: string): void {
    const n = child(node, field);
    if (n !== null) this.node(n);
  }

  /** Any other node: only the statements and assignments somewhere inside it matter. */
  node(node: RawNode): void {
    switch (typeOf(node)) {
      case "*syntax.Lit":
      case "*syntax.SglQuoted":
        return;
      case "*syntax.Word":
      case "*syntax.DblQuoted":
      case "*syntax.BraceExp":
        for (const p of children(node, typeOf(node) === "*syntax.BraceExp" ? "Elems" : "Parts")) this.node(p);
        return;
      case "*syntax.Stmt":
        this.stmt(node);
        return;
      case "*syntax.Assign":
        this.assign(node);
        return;
      case "*syntax.CallExpr":
      case "*syntax.DeclClause":
        this.command(node);
        return;
      case "*syntax.Subshell":
      case "*syntax.Block":
      case "*syntax.CmdSubst":
      case "*syntax.ProcSubst":
        this.stmts(node, "Stmts");
        return;
      case "*syntax.IfClause":
        this.stmts(node, "Cond");
        this.stmts(node, "Then");
        this.optional(node, "Else");
        return;
      case "*syntax.WhileClause":
        this.stmts(node, "Cond");
        this.stmts(node, "Do");
        return;
      case "*syntax.ForClause":
        this.optional(node, "Loop");
        this.stmts(node, "Do");
        return;
      case "*syntax.WordIter":
        this.optional(node, "Name");
        for (const w of children(node, "Items")) this.node(w);
        return;
      case "*syntax.CStyleLoop":
        this.optional(node, "Init");
        this.optional(node, "Cond");
        this.optional(node, "Post");
        return;
      case "*syntax.BinaryCmd":
      case "*syntax.BinaryArithm":
      case "*syntax.BinaryTest":
        this.optional(node, "X");
        this.optional(node, "Y");
        return;
      case "*syntax.FuncDecl":
        this.optional(node, "Name");
        this.optional(node, "Body");
        return;
      case "*syntax.ParamExp":
        this.paramExp(node);
        return;
      case "*syntax.ArithmExp":
      case "*syntax.ArithmCmd":
      case "*syntax.UnaryArithm":
      case "*syntax.UnaryTest":
      case "*syntax.ParenArithm":
      case "*syntax.ParenTest":
      case "*syntax.TestClause":
        this.optional(node, "X");
        return;
      case "*syntax.CaseClause":
        this.optional(node, "Word");
        for (const item of children(node, "Items")) {
          for (const p of children(item, "Patterns")) this.node(p);
          this.stmts(item, "Stmts");
        }
        return;
      case "*syntax.ExtGlob": {
        // mvdan/sh keeps the pattern as literal text, but bash (with extglob on) expands
        // substitutions inside it; they cannot be judged, so the command is not analysable.
        const pattern = child(node, "Pattern");
        if (pattern !== null && /[$`]|[<>]\(/.test(goString(pattern.Value)))
          throw new ShapeError("a substitution inside an extended glob pattern cannot be analysed");
        return;
      }
      case "*syntax.TimeClause":
        this.optional(node, "Stmt");
        return;
      case "*syntax.CoprocClause":
        this.optional(node, "Name");
        this.optional(node, "Stmt");
        return;
      case "*syntax.LetClause":
        for (const e of children(node, "Exprs")) this.node(e);
        return;
      default:
        throw new ShapeError(`unsupported shell syntax (${typeOf(node).replace("*syntax.", "")})`);
    }
  }

  paramExp(node: RawNode): void {
    this.optional(node, "Param");
    this.optional(node, "Index");
    const slice = child(node, "Slice");
    if (slice !== null) {
      this.optional(slice, "Offset");
      this.optional(slice, "Length");
    }
    const repl = child(node, "Repl");
    if (repl !== null) {
      this.optional(repl, "Orig");
      this.optional(repl, "With");
    }
    const exp = child(node, "Exp");
    if (exp !== null) this.optional(exp, "Word");
  }
}

export function walkFile(file: RawNode, src: string): ParsedScript {
  if (typeOf(file) !== "*syntax.File") throw new ShapeError("mvdan-sh: parse result is not a file");
  const w = new Walker(src);
  w.stmts(file, "Stmts");
  return { src, events: w.events };
}
