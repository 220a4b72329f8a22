// A hand-written walk over mvdan/sh's raw GopherJS AST (see parser.ts for why it is read raw).
// It visits every node in syntax.Walk's order and records each statement and assignment, with
// the words, assignments and redirects the analysis reads, the scopes bash runs them in
// (subshells, loops, function bodies), and every place where bash evaluates a word again as
// code or where mvdan/sh and bash read the text differently ("hazards"). Every node type of
// the bash grammar is listed; an unknown type or a field that is not where it should be throws,
// and the analysis reports the command as unparsable (ask): nothing is silently skipped.

import { heredocDisagreement } from "./heredoc.ts";

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

/** Operator codes of the parser build in use, probed from the parser itself (parser.ts). */
export interface OpCodes {
  /** `<<` and `<<-`. */
  heredoc: ReadonlySet<number>;
  pipe: ReadonlySet<number>;
  /** `a | b` alone: only a's standard output goes to b (`|&` sends its errors too). */
  pipeOut: number;
  /** `a && b`: b runs only if a succeeded. */
  and: number;
  /** `[[ -v x ]]`, `[[ -R x ]]`: the operand names a variable (its subscript is arithmetic). */
  nameTests: ReadonlySet<number>;
  /** `[[ a -eq b ]]` and friends: both operands are evaluated as arithmetic. */
  arithTests: ReadonlySet<number>;
  /** `${x@op}` */
  paramAt: number;
  /** `${x=v}`, `${x:=v}`: the expansion assigns x. */
  paramAssign: ReadonlySet<number>;
  /** `a=1`, `a+=1` … `a++`, `--a`: arithmetic that assigns its operand. */
  arithAssign: ReadonlySet<number>;
  /** `a=1` alone: the one of them that does not read the operand's value first. */
  arithSet: number;
}

export type WordPart =
  | { type: "lit"; value: string }
  | { type: "sgl"; value: string; dollar: boolean }
  | { type: "dbl"; dollar: boolean; parts: WordPart[] }
  /** `$NAME` or `${NAME}` with no operator: the value of one variable. */
  | { type: "param"; name: string }
  /** An extended glob pattern such as `@(a|b)`, kept as written. */
  | { type: "extglob"; value: string }
  /** `<(…)` or `>(…)`: bash passes a pipe's name, `/dev/fd/N`. */
  | { type: "procsubst" }
  /**
   * `$(CMD)` outside quotes holding one statement: its value is only known at run time, split into words;
   * `stmt` is CMD's, for what it prints (found-paths.ts).
   */
  | { type: "subst"; stmt: StmtEvent }
  /** Any other substitution or expansion: its value is only known at run time (`digits`: a number). */
  | { type: "dynamic"; digits?: true };

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
export interface Assignment {
  /** The variable name; "" for a declaration argument that is not an assignment (`-x`, `$v`). */
  name: string;
  append: boolean;
  /** `name[…]=`: a subscript, which bash evaluates. */
  indexed: boolean;
  /** `name=(…)`: an array value. */
  array: boolean;
  /** The words of an array value, each expanded as a command's word is (a glob lists names). */
  elements?: Word[];
  /** A declaration argument without `=` (`export PATH`, `-x`); its word is in `value`. */
  naked: boolean;
  value: Word | null;
  start: number;
  end: number;
}
export type Command =
  | { type: "call"; assigns: Assignment[]; args: Word[] }
  | { type: "decl"; variant: string; args: Assignment[] }
  /** `[[ … ]]`, `(( … ))` and `let …`: builtins with their own grammar, judged as one unit. */
  | { type: "keyword"; name: "[[" | "((" | "let"; start: number; end: number }
  | { type: "func"; name: string }
  /** `case WORD in …`: the span of the word it tests (expanded, so it may print a secret by its branches). */
  | { type: "case"; start: number; end: number }
  | { type: "other" };

export interface Hazard {
  reason: string;
  start: number;
  end: number;
  /**
   * The variable whose value bash evaluates here (`x` or `$x` alone in arithmetic): no hazard when the
   * script is known to have set it to an integer literal (statement.ts), which evaluates to itself.
   */
  name?: string;
}
export interface StmtEvent {
  kind: "stmt";
  start: number;
  end: number;
  redirs: Redirect[];
  cmd: Command | null;
  /** Places in this statement's own text that bash evaluates again as code, or reads differently. */
  hazards: readonly Hazard[];
  /** Variables this statement assigns outside a command (`for NAME in`, `${NAME:=v}`). */
  assigned: readonly string[];
  /** Names a `for NAME in` loop in this statement binds to its own words (not to the environment). */
  loopNames: readonly string[];
  /** The words of a `for NAME in WORDS` header (absent for `select`, and for `for NAME` without `in`). */
  loopWords?: Word[];
  /** The words `select NAME in WORDS` prints as its menu. */
  selectWords?: Word[];
  /** `a | b` where both are simple commands: on b's statement, a's (b reads what a prints). */
  stdinFrom?: StmtEvent;
}

// Most statements have no hazards and assign nothing: they share these until they do.
const NO_HAZARDS: readonly Hazard[] = Object.freeze([]);
const NO_NAMES: readonly string[] = Object.freeze([]);
const LEAVE: ScriptEvent = Object.freeze({ kind: "leave" });
const ENTER: Readonly<Record<ScopeKind, ScriptEvent>> = Object.freeze({
  subshell: Object.freeze({ kind: "enter", scope: "subshell" }),
  loop: Object.freeze({ kind: "enter", scope: "loop" }),
  function: Object.freeze({ kind: "enter", scope: "function" }),
  andThen: Object.freeze({ kind: "enter", scope: "andThen" }),
});
/** `andThen`: the right side of `&&`, which runs only if the left side succeeded (same shell). */
export type ScopeKind = "subshell" | "loop" | "function" | "andThen";
export type ScriptEvent =
  | StmtEvent
  | { kind: "assign"; start: number; end: number }
  | { kind: "enter"; scope: ScopeKind }
  | { kind: "leave" };

export interface ParsedScript {
  readonly src: string;
  /** Statements and assignments in pre-order, as syntax.Walk would visit them, with scope marks. */
  readonly events: ScriptEvent[];
}

class ShapeError extends Error {}

const decoder = new TextDecoder();
// biome-ignore lint/suspicious/noControlCharactersInRegex: checking for pure ASCII on purpose
const ASCII = /^[\u0000-\u007f]*$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `<(` or `>(` not escaped by a backslash. */
const PROC_SUBST_TEXT = /(?<!\\)[<>]\(/;
/** An integer literal as bash's arithmetic reads it: decimal, octal, 0x hex, base#digits. */
export const NUMBER = /^(0[xX][0-9a-fA-F]+|[0-9]+(#[0-9A-Za-z@_]+)?)$/;

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
export function child(node: RawNode, field: string): RawNode | null {
  const v = node[field];
  if (typeof v !== "object" || v === null) throw new ShapeError(`mvdan-sh: no field ${field}`);
  const n = v as RawNode;
  // A nil interface has no Go type; a nil pointer is its type's `nil` value.
  if (typeof n.constructor?.string !== "string" || n === n.constructor.nil) return null;
  return n;
}

export function children(node: RawNode, field: string): RawNode[] {
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

/** The literal text of a word made of one plain literal, else null. */
function plainLit(node: RawNode | null): string | null {
  if (node === null || typeOf(node) !== "*syntax.Word") return null;
  const parts = children(node, "Parts");
  const only = parts[0];
  return parts.length === 1 && only !== undefined && typeOf(only) === "*syntax.Lit"
    ? goString(only.Value)
    : null;
}

/** The context a node is visited in: what bash does with the text found there. */
interface Context {
  /** Inside an arithmetic expression: a name or a `$x` there is evaluated as code. */
  arith: number;
  /** Inside double quotes (or an unquoted here-document body). */
  dq: number;
  /** Inside the word of a `${…}` that is itself inside double quotes. */
  dqParam: number;
  /** Inside backquotes, where bash removes a level of backslashes before it parses. */
  bq: number;
}

class Walker {
  readonly events: ScriptEvent[] = [];
  readonly #src: string;
  readonly #ops: OpCodes;
  /** UTF-8 byte offset → UTF-16 index; only built for scripts that are not pure ASCII. */
  #index: Uint32Array | null = null;
  readonly #stmts: StmtEvent[] = [];
  #ctx: Context = { arith: 0, dq: 0, dqParam: 0, bq: 0 };
  /** The `for`/`select` clause whose header is being walked. */
  #forClause: RawNode | null = null;

  constructor(src: string, ops: OpCodes) {
    this.#src = src;
    this.#ops = ops;
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

  hazard(node: RawNode, reason: string, name?: string): void {
    const stmt = this.#stmts[this.#stmts.length - 1];
    if (stmt === undefined) throw new ShapeError("mvdan-sh: expression outside a statement");
    const at = { reason, start: this.start(node), end: this.end(node) };
    stmt.hazards = [...stmt.hazards, name === undefined ? at : { ...at, name }];
  }

  assigned(name: string): void {
    const stmt = this.#stmts[this.#stmts.length - 1];
    if (stmt !== undefined) stmt.assigned = [...stmt.assigned, name];
  }

  loopName(name: string): void {
    const stmt = this.#stmts[this.#stmts.length - 1];
    if (stmt !== undefined) stmt.loopNames = [...stmt.loopNames, name];
  }

  scoped(scope: ScopeKind, visit: () => void): void {
    this.events.push(ENTER[scope]);
    visit();
    this.events.push(LEAVE);
  }

  // The context changes by counting in place (no copies: the walk runs for every command).
  arith(visit: () => void): void {
    this.#ctx.arith++;
    try {
      visit();
    } finally {
      this.#ctx.arith--;
    }
  }

  stmts(node: RawNode, field: string): void {
    for (const s of children(node, field)) this.stmt(s);
  }

  stmt(node: RawNode): void {
    if (typeOf(node) !== "*syntax.Stmt") throw new ShapeError(`mvdan-sh: ${typeOf(node)} is not a statement`);
    // `cmd &` and `coproc` run in a subshell: a `cd` there does not move the rest of the script.
    const async = node.Background === true || node.Coprocess === true;
    if (async) this.events.push(ENTER.subshell);
    // Pushed before its children so nested statements follow it, as in syntax.Walk.
    const event: StmtEvent = {
      kind: "stmt",
      start: this.start(node),
      end: this.end(node),
      redirs: [],
      cmd: null,
      hazards: NO_HAZARDS,
      assigned: NO_NAMES,
      loopNames: NO_NAMES,
    };
    this.events.push(event);
    this.#stmts.push(event);
    // A nested statement ($(…), a body) starts in a fresh context (backquotes stay counted).
    const ctx = this.#ctx;
    const { arith, dq, dqParam } = ctx;
    ctx.arith = 0;
    ctx.dq = 0;
    ctx.dqParam = 0;
    try {
      this.#stmtBody(node, event);
    } finally {
      ctx.arith = arith;
      ctx.dq = dq;
      ctx.dqParam = dqParam;
      this.#stmts.pop();
    }
    if (async) this.events.push(LEAVE);
  }

  #stmtBody(node: RawNode, event: StmtEvent): void {
    const cmd = child(node, "Cmd");
    if (cmd !== null) event.cmd = this.command(cmd);
    for (const r of children(node, "Redirs")) {
      const n = child(r, "N");
      if (n !== null) {
        this.node(n);
        // `{NAME}>file` (also `exec {NAME}>…`) stores the file descriptor bash opens in NAME:
        // `{PATH}>/dev/null` makes PATH a relative directory (red team, round 9).
        const fdName = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(goString(n.Value));
        if (fdName) this.assigned(fdName[1] as string);
      }
      const word = child(r, "Word");
      const hdoc = child(r, "Hdoc");
      if (typeof r.Op !== "number") throw new ShapeError("mvdan-sh: redirect without an operator");
      if (this.#ops.heredoc.has(r.Op) && word !== null) this.#heredocHazard(r, word, hdoc);
      event.redirs.push({
        op: r.Op,
        word: word === null ? null : this.word(word),
        // An unquoted here-document body expands like a double-quoted string.
        hdoc: hdoc === null ? null : this.#inDq(() => this.word(hdoc)),
        start: this.start(r),
        end: this.end(r),
      });
    }
    if (event.cmd?.type === "call" && event.redirs.length > 0)
      this.#namedFdWords(event.cmd.args, event.redirs);
  }

  /**
   * bash reads `{a[i]}>file` as a named-fd redirection that assigns an array element (its subscript is
   * arithmetic, run as code); mvdan/sh only knows `{NAME}` and reads `{a[i]}` as an argument.
   */
  #namedFdWords(args: readonly Word[], redirs: readonly Redirect[]): void {
    for (const w of args) {
      if (this.#src[w.start] !== "{" || this.#src[w.end - 1] !== "}") continue;
      if (!redirs.some((r) => r.start === w.end)) continue;
      const stmt = this.#stmts[this.#stmts.length - 1] as StmtEvent;
      stmt.hazards = [
        ...stmt.hazards,
        {
          reason: "a `{NAME[…]}` before a redirection assigns a variable bash opens a file descriptor for",
          start: w.start,
          end: w.end,
        },
      ];
    }
  }

  #heredocHazard(redirect: RawNode, word: RawNode, hdoc: RawNode | null): void {
    const why = heredocDisagreement(
      this.#src.slice(this.start(word), this.end(word)),
      hdoc === null ? "" : this.#src.slice(this.start(hdoc), this.end(hdoc)),
      this.#src.slice(this.start(redirect), this.start(word)).includes("<<-"),
    );
    if (why !== null) this.hazard(hdoc ?? redirect, why);
  }

  #inDq<T>(visit: () => T): T {
    this.#ctx.dq++;
    try {
      return visit();
    } finally {
      this.#ctx.dq--;
    }
  }

  command(node: RawNode): Command {
    const type = typeOf(node);
    if (type === "*syntax.CallExpr") {
      const assigns = children(node, "Assigns").map((a) => this.assign(a));
      return { type: "call", assigns, args: children(node, "Args").map((w) => this.word(w)) };
    }
    if (type === "*syntax.DeclClause") {
      const variant = child(node, "Variant");
      if (variant === null) throw new ShapeError("mvdan-sh: declaration without a name");
      return {
        type: "decl",
        variant: goString(variant.Value),
        args: children(node, "Args").map((a) => this.assign(a)),
      };
    }
    this.node(node);
    const at = { start: this.start(node), end: this.end(node) };
    if (type === "*syntax.TestClause") return { type: "keyword", name: "[[", ...at };
    if (type === "*syntax.ArithmCmd") return { type: "keyword", name: "((", ...at };
    if (type === "*syntax.LetClause") return { type: "keyword", name: "let", ...at };
    if (type === "*syntax.FuncDecl") {
      const name = child(node, "Name");
      return { type: "func", name: name === null ? "" : goString(name.Value) };
    }
    if (type === "*syntax.CaseClause") {
      const word = child(node, "Word");
      if (word !== null) return { type: "case", start: this.start(word), end: this.end(word) };
    }
    return { type: "other" };
  }

  assign(node: RawNode): Assignment {
    if (typeOf(node) !== "*syntax.Assign")
      throw new ShapeError(`mvdan-sh: ${typeOf(node)} is not an assignment`);
    this.events.push({ kind: "assign", start: this.start(node), end: this.end(node) });
    const name = child(node, "Name");
    const index = child(node, "Index");
    if (index !== null) this.subscript(index);
    const value = child(node, "Value");
    const array = child(node, "Array");
    const elements: Word[] = [];
    if (array !== null) {
      for (const e of children(array, "Elems")) {
        const i = child(e, "Index");
        if (i !== null) this.subscript(i);
        const v = child(e, "Value");
        if (v !== null) elements.push(this.word(v));
      }
    }
    return {
      name: name === null ? "" : goString(name.Value),
      append: node.Append === true,
      indexed: index !== null,
      array: array !== null,
      ...(array === null ? {} : { elements }),
      naked: node.Naked === true,
      value: value === null ? null : this.word(value),
      start: this.start(node),
      end: this.end(node),
    };
  }

  /** An array subscript: arithmetic for indexed arrays, so a name or `$x` in it runs as code. */
  subscript(index: RawNode): void {
    const lit = plainLit(index);
    if (lit !== null && (NUMBER.test(lit) || lit === "@" || lit === "*")) return;
    this.arith(() => this.node(index));
  }

  word(node: RawNode): Word {
    if (typeOf(node) !== "*syntax.Word") throw new ShapeError(`mvdan-sh: ${typeOf(node)} is not a word`);
    const parts = children(node, "Parts").map((p) => this.part(p));
    return { parts, start: this.start(node), end: this.end(node) };
  }

  part(node: RawNode): WordPart {
    switch (typeOf(node)) {
      case "*syntax.Lit": {
        const value = goString(node.Value);
        if (this.#ctx.bq > 0) this.#backslashHazard(node, value);
        this.#procSubstHazard(node, value);
        return { type: "lit", value };
      }
      case "*syntax.SglQuoted": {
        this.#sglHazard(node);
        const value = goString(node.Value);
        this.#backslashHazard(node, value);
        return { type: "sgl", value, dollar: node.Dollar === true };
      }
      case "*syntax.DblQuoted":
        return this.#inDq(() => ({
          type: "dbl",
          dollar: node.Dollar === true,
          parts: children(node, "Parts").map((p) => this.part(p)),
        }));
      case "*syntax.ParamExp": {
        const name = this.#simpleParam(node);
        this.node(node);
        if (name !== null) return { type: "param", name };
        return numeric(node) ? { type: "dynamic", digits: true } : { type: "dynamic" };
      }
      case "*syntax.ExtGlob":
        this.node(node);
        return { type: "extglob", value: this.#src.slice(this.start(node), this.end(node)) };
      case "*syntax.ProcSubst":
        this.node(node);
        return { type: "procsubst" };
      case "*syntax.CmdSubst": {
        const at = this.events.length;
        this.node(node);
        const stmt = this.#onlyStatement(node, at);
        return stmt === null ? { type: "dynamic" } : { type: "subst", stmt };
      }
      case "*syntax.ArithmExp":
        this.node(node);
        return { type: "dynamic", digits: true };
      default:
        this.node(node);
        return { type: "dynamic" };
    }
  }

  /** The one statement of an unquoted `$(…)` just walked from event `at` (scoped: its enter comes first). */
  #onlyStatement(node: RawNode, at: number): StmtEvent | null {
    const plain = this.#ctx.dq === 0 && this.#ctx.arith === 0 && node.Backquotes !== true;
    if (!plain || children(node, "Stmts").length !== 1) return null;
    const event = this.events[at + 1];
    return event?.kind === "stmt" ? event : null;
  }

  /** `$NAME` / `${NAME}` without subscript, operator or slice. */
  #simpleParam(node: RawNode): string | null {
    if (node.Excl === true || node.Length === true || node.Width === true) return null;
    if (child(node, "Index") || child(node, "Slice") || child(node, "Repl") || child(node, "Exp"))
      return null;
    if (node.Names !== 0) return null;
    const param = child(node, "Param");
    const name = param === null ? "" : goString(param.Value);
    return NAME.test(name) ? name : null;
  }

  #sglHazard(node: RawNode): void {
    // bash keeps single quotes literal inside a double-quoted ${x:-…} (and runs the $(…) they
    // seem to quote); mvdan/sh reads them as quotes. The two disagree, so nothing here is trusted.
    if (this.#ctx.dqParam > 0)
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
      this.hazard(node, "single quotes inside a double-quoted ${…} are literal to bash, not quotes");
  }

  #procSubstHazard(node: RawNode, value: string): void {
    // mvdan/sh keeps `<(…)`/`>(…)` as text in a `${x:-…}` word, a `[[ =~ (…) ]]` regex and a case
    // pattern; bash runs it there (red team, round 9). Outside double quotes a literal holds no
    // unescaped `<(` anywhere the parser reads a process substitution, so one found is never text to bash.
    if ((this.#ctx.dq === 0 || this.#ctx.dqParam > 0) && PROC_SUBST_TEXT.test(value))
      this.hazard(node, "a process substitution the parser reads as text (bash runs it)");
  }

  #backslashHazard(node: RawNode, value: string): void {
    // Inside backquotes bash turns `\\` into `\` (and `\$` into `$`) before it parses, also within
    // quotes; mvdan/sh does not within quotes. A backslash there may mean something else to bash.
    if (this.#ctx.bq > 0 && value.includes("\\"))
      this.hazard(
        node,
        "a backslash inside backquotes (bash removes one level of backslashes first; the parser does not)",
      );
  }

  optional(node: RawNode, field: string): void {
    const n = child(node, field);
    if (n !== null) this.node(n);
  }

  /** Any other node: only the statements and assignments somewhere inside it matter. */
  node(node: RawNode): void {
    switch (typeOf(node)) {
      case "*syntax.Lit":
        if (this.#ctx.bq > 0) this.#backslashHazard(node, goString(node.Value));
        this.#procSubstHazard(node, goString(node.Value));
        if (this.#ctx.arith > 0) {
          const v = goString(node.Value);
          if (!NUMBER.test(v))
            this.hazard(node, `\`${v}\` in arithmetic: bash evaluates the value of a name as code`);
        }
        return;
      case "*syntax.SglQuoted":
        this.#sglHazard(node);
        this.#backslashHazard(node, goString(node.Value));
        if (this.#ctx.arith > 0) this.hazard(node, "a quoted string in arithmetic is evaluated as code");
        return;
      case "*syntax.Word": {
        // A whole word that is one name reads its value; a name glued to more text (`x$y`) is another name.
        const lit = this.#ctx.arith > 0 ? plainLit(node) : null;
        if (lit !== null && NAME.test(lit)) {
          this.hazard(node, `\`${lit}\` in arithmetic: bash evaluates the value of a name as code`, lit);
          return;
        }
        for (const p of children(node, "Parts")) this.node(p);
        return;
      }
      case "*syntax.DblQuoted":
        this.#inDq(() => {
          for (const p of children(node, "Parts")) this.node(p);
        });
        return;
      case "*syntax.BraceExp":
        for (const p of children(node, "Elems")) this.node(p);
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
      case "*syntax.CmdSubst":
        // `$(( $(cmd) ))`: the output is read as an expression, so a name in it runs its value.
        if (this.#ctx.arith > 0)
          this.hazard(node, "the output of a command substitution in arithmetic is evaluated as code");
        if (node.Backquotes === true) {
          this.#ctx.bq++;
          try {
            this.scoped("subshell", () => this.stmts(node, "Stmts"));
          } finally {
            this.#ctx.bq--;
          }
          return;
        }
        this.scoped("subshell", () => this.stmts(node, "Stmts"));
        return;
      case "*syntax.Subshell":
      case "*syntax.ProcSubst":
        this.scoped("subshell", () => this.stmts(node, "Stmts"));
        return;
      case "*syntax.Block":
        this.stmts(node, "Stmts");
        return;
      case "*syntax.IfClause":
        this.stmts(node, "Cond");
        this.stmts(node, "Then");
        this.optional(node, "Else");
        return;
      case "*syntax.WhileClause":
        this.scoped("loop", () => {
          this.stmts(node, "Cond");
          this.stmts(node, "Do");
        });
        return;
      case "*syntax.ForClause":
        this.scoped("loop", () => {
          const outer = this.#forClause;
          this.#forClause = node;
          try {
            this.optional(node, "Loop");
          } finally {
            this.#forClause = outer;
          }
          this.stmts(node, "Do");
        });
        return;
      case "*syntax.WordIter": {
        const name = child(node, "Name");
        if (name !== null) {
          this.assigned(goString(name.Value));
          this.loopName(goString(name.Value));
        }
        const words = children(node, "Items").map((w) => this.word(w));
        const stmt = this.#stmts[this.#stmts.length - 1];
        // `select` binds what a person types; `for NAME do` (no `in`) binds the positional parameters.
        if (stmt !== undefined && words.length > 0 && this.#forClause?.Select !== true)
          stmt.loopWords = words;
        else if (stmt !== undefined && words.length > 0) stmt.selectWords = words;
        return;
      }
      case "*syntax.CStyleLoop":
        this.arith(() => {
          this.optional(node, "Init");
          this.optional(node, "Cond");
          this.optional(node, "Post");
        });
        return;
      case "*syntax.BinaryCmd":
        if (typeof node.Op === "number" && this.#ops.pipe.has(node.Op)) {
          // Every part of a pipeline runs in its own subshell.
          let producer: ScriptEvent | undefined;
          this.scoped("subshell", () => {
            const at = this.events.length;
            this.optional(node, "X");
            producer = this.events[at];
          });
          this.scoped("subshell", () => {
            const at = this.events.length;
            this.optional(node, "Y");
            const consumer = this.events[at];
            if (
              node.Op === this.#ops.pipeOut &&
              producer?.kind === "stmt" &&
              producer.cmd?.type === "call" &&
              consumer?.kind === "stmt" &&
              consumer.cmd?.type === "call"
            )
              consumer.stdinFrom = producer;
          });
        } else if (node.Op === this.#ops.and) {
          this.optional(node, "X");
          this.scoped("andThen", () => this.optional(node, "Y"));
        } else {
          this.optional(node, "X");
          this.optional(node, "Y");
        }
        return;
      case "*syntax.BinaryArithm":
      case "*syntax.UnaryArithm":
      case "*syntax.ParenArithm":
        if (typeof node.Op === "number" && this.#ops.arithAssign.has(node.Op))
          this.#arithTarget(child(node, "X"), node.Op !== this.#ops.arithSet);
        else this.optional(node, "X");
        if (typeOf(node) === "*syntax.BinaryArithm") this.optional(node, "Y");
        return;
      case "*syntax.BinaryTest":
        if (typeof node.Op === "number" && this.#ops.arithTests.has(node.Op)) {
          this.#arithOperand(child(node, "X"));
          this.#arithOperand(child(node, "Y"));
        } else {
          this.optional(node, "X");
          this.optional(node, "Y");
        }
        return;
      case "*syntax.UnaryTest": {
        const x = child(node, "X");
        if (typeof node.Op === "number" && this.#ops.nameTests.has(node.Op) && x !== null) {
          const lit = plainLit(x);
          if (lit === null || !/^[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])?$/.test(lit))
            this.hazard(x, "the variable name of `-v`/`-R` is evaluated (its subscript runs as code)");
        }
        if (x !== null) this.node(x);
        return;
      }
      case "*syntax.FuncDecl":
        this.optional(node, "Name");
        this.scoped("function", () => this.optional(node, "Body"));
        return;
      case "*syntax.ParamExp":
        this.paramExp(node);
        return;
      case "*syntax.ArithmExp":
      case "*syntax.ArithmCmd":
        this.arith(() => this.optional(node, "X"));
        return;
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
      case "*syntax.CoprocClause": {
        // `coproc NAME …` sets the array NAME (the coprocess's descriptors) and NAME_PID.
        const name = child(node, "Name");
        const coproc = plainLit(name) ?? (name === null ? "COPROC" : null);
        if (coproc === null && name !== null) this.hazard(name, "a coprocess named by an expansion");
        else if (coproc !== null) {
          this.assigned(coproc);
          this.assigned(`${coproc}_PID`);
        }
        this.optional(node, "Name");
        this.scoped("subshell", () => this.optional(node, "Stmt"));
        return;
      }
      case "*syntax.LetClause":
        this.arith(() => {
          for (const e of children(node, "Exprs")) this.node(e);
        });
        return;
      default:
        throw new ShapeError(`unsupported shell syntax (${typeOf(node).replace("*syntax.", "")})`);
    }
  }

  /** An operand of `[[ a -eq b ]]`: a number is fine; anything else is evaluated as arithmetic. */
  #arithOperand(x: RawNode | null): void {
    if (x === null) return;
    const lit = plainLit(x);
    if (lit !== null && /^[-+]?[0-9]+$/.test(lit)) return;
    const parts = children(x, "Parts");
    const only = parts.length === 1 ? (parts[0] as RawNode) : null;
    const param = only !== null && typeOf(only) === "*syntax.ParamExp" ? this.#simpleParam(only) : null;
    const name = lit !== null && NAME.test(lit) ? lit : (param ?? undefined);
    this.hazard(x, "an operand of an arithmetic test is evaluated as code", name);
    this.node(x);
  }

  /**
   * What `x=…`, `x+=…`, `x++` assign: the name is set (so no earlier value of it is relied on). `x=…` sets
   * an integer without reading x; the others evaluate x's value first, a hazard that names no variable, so
   * it is never taken for a read of a known integer.
   */
  #arithTarget(x: RawNode | null, reads: boolean): void {
    if (x === null) return;
    const lit = plainLit(x);
    if (lit === null || !NAME.test(lit)) {
      this.node(x);
      return;
    }
    this.assigned(lit);
    if (reads) this.hazard(x, `\`${lit}\` is read and assigned in arithmetic`);
  }

  paramExp(node: RawNode): void {
    if (this.#ctx.arith > 0)
      this.hazard(
        node,
        "a variable in arithmetic: bash evaluates its value as code",
        this.#simpleParam(node) ?? undefined,
      );
    const param = child(node, "Param");
    const name = param === null ? "" : goString(param.Value);
    const index = child(node, "Index");
    const exp = child(node, "Exp");
    const indexLit = plainLit(index);
    if (node.Excl === true && node.Names === 0 && !(indexLit === "@" || indexLit === "*"))
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
      this.hazard(node, "an indirect expansion `${!x}` evaluates the subscript in x's value as code");
    if (exp !== null && typeof exp.Op === "number") {
      if (exp.Op === this.#ops.paramAt && /P/.test(plainLit(child(exp, "Word")) ?? "P"))
        // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
        this.hazard(node, "`${x@P}` expands x's value as a prompt, which runs its substitutions");
      if (this.#ops.paramAssign.has(exp.Op) && NAME.test(name)) this.assigned(name);
    }
    if (index !== null) this.subscript(index);
    const slice = child(node, "Slice");
    if (slice !== null) {
      // Offset and length are arithmetic.
      for (const f of ["Offset", "Length"]) {
        const n = child(slice, f);
        if (n !== null && !/^[-+]?[0-9]+$/.test(plainLit(n) ?? "")) this.arith(() => this.node(n));
        else if (n !== null) this.node(n);
      }
    }
    // The words of `${x:-word}` and `${x/a/b}` are not arithmetic, whatever surrounds them.
    const ctx = this.#ctx;
    const { arith, dqParam } = ctx;
    ctx.arith = 0;
    if (ctx.dq > 0) ctx.dqParam++;
    try {
      const repl = child(node, "Repl");
      if (repl !== null) {
        this.optional(repl, "Orig");
        this.optional(repl, "With");
      }
      if (exp !== null) this.optional(exp, "Word");
    } finally {
      ctx.arith = arith;
      ctx.dqParam = dqParam;
    }
  }
}

/** `${#x}`, `$#`, `$?`, `$$`, `$!`: expansions whose value is a number. */
function numeric(node: RawNode): boolean {
  const param = child(node, "Param");
  const name = param === null ? "" : goString(param.Value);
  if (node.Length === true) return child(node, "Exp") === null && child(node, "Repl") === null;
  return /^[#?$!]$/.test(name) && node.Excl !== true && child(node, "Exp") === null && node.Width !== true;
}

export function walkFile(file: RawNode, src: string, ops: OpCodes): ParsedScript {
  if (typeOf(file) !== "*syntax.File") throw new ShapeError("mvdan-sh: parse result is not a file");
  const w = new Walker(src, ops);
  w.stmts(file, "Stmts");
  return { src, events: w.events };
}
