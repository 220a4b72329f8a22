// The one place that touches mvdan-sh: parsing a script and flattening its AST into the plain
// statements and assignments the analysis judges. Nothing here touches mvdan-sh at import time:
// workerd forbids timers in global scope and the GopherJS runtime starts one, so the edge loads
// the real module inside a handler (see src/edge/shims/mvdan-sh-deferred.ts) and the parser is
// built on first use.
//
// Why the AST is read raw: the package's own JS API (syntax.Walk, syntax.NodeType and the node
// objects it hands out) wraps every Go value it returns in a fresh object with a property
// descriptor per field and method, and NodeType formats the type name with fmt.Sprintf("%T");
// that cost ~90% of an uncached decision. The wrapper keeps the Go value it wraps in
// `__internal_object__`, and a GopherJS value is a plain object: a struct pointer carries its
// fields under their Go names and its type in `constructor.string` ("*syntax.CallExpr"), a
// slice is {$array, $offset, $length}, a nil pointer is its type's `nil` object and a nil
// interface has no type string. walk.ts reads that directly and fails closed (the command
// is unparsable, so `ask`) on any node type or shape it does not know.

// Evaluated first (a side-effect import is never reordered), before mvdan-sh changes the limit.
import "./stack-trace-limit.ts";
import sh from "mvdan-sh";
import { errorWithLimit, savedStackTraceLimit } from "./stack-trace-limit.ts";
import {
  child,
  children,
  type OpCodes,
  type ParsedScript,
  type RawNode,
  type Word,
  walkFile,
} from "./walk.ts";

errorWithLimit.stackTraceLimit = savedStackTraceLimit;

type Syntax = (typeof sh)["syntax"];
let parser: ReturnType<Syntax["NewParser"]> | undefined;

function mvdan(): ReturnType<Syntax["NewParser"]> {
  if (!parser) {
    const { syntax } = sh;
    // One parser for the process: mvdan/sh resets its state at the start of every Parse.
    parser = syntax.NewParser(syntax.Variant(syntax.LangBash));
    errorWithLimit.stackTraceLimit = savedStackTraceLimit;
  }
  return parser;
}

export type {
  Assignment,
  Command,
  Hazard,
  ParsedScript,
  Redirect,
  ScopeKind,
  ScriptEvent,
  StmtEvent,
  Word,
  WordPart,
} from "./walk.ts";

let posixParser: ReturnType<Syntax["NewParser"]> | undefined;

/** mvdan/sh's POSIX grammar: what `sh` reads (dialect.ts compares its tree with bash's). */
function mvdanPosix(): ReturnType<Syntax["NewParser"]> {
  if (!posixParser) {
    mvdan();
    const { syntax } = sh;
    posixParser = syntax.NewParser(syntax.Variant(syntax.LangPOSIX));
    errorWithLimit.stackTraceLimit = savedStackTraceLimit;
  }
  return posixParser;
}

/**
 * A script's raw tree as bash's grammar reads it and as the POSIX grammar does (for a script `sh`
 * runs: see dialect.ts). Throws a plain Error with the parser's message when either cannot read it.
 */
export function bothReadings(src: string): { bash: RawNode; posix: RawNode } {
  if (LONE_SURROGATE.test(src)) throw new Error("the command contains an unpaired UTF-16 surrogate");
  return { bash: rawFile(src), posix: rawFile(src, mvdanPosix()) };
}

function rawFile(src: string, using: ReturnType<Syntax["NewParser"]> = mvdan()): RawNode {
  let file: { __internal_object__?: unknown };
  try {
    file = using.Parse(src, "") as { __internal_object__?: unknown };
  } catch (error) {
    const e = error as { message?: unknown; Error?: () => string };
    const message =
      typeof e.Error === "function" ? e.Error() : typeof e.message === "string" ? e.message : String(error);
    throw new Error(message);
  }
  const raw = file.__internal_object__;
  if (typeof raw !== "object" || raw === null) throw new Error("mvdan-sh: parse result has no Go value");
  return raw as RawNode;
}

// The commonest command is a name and a few plain arguments (`git status`, `npm run build`).
// For those the GopherJS parse is ~90% of an uncached decision, and its result is known in
// advance: one statement, one call, one literal per word. "Plain" is deliberately narrow: only
// characters that are never special to bash inside a word, no assignment (a first word with
// `=`), no reserved word or declaration builtin that mvdan/sh parses as its own node.
// test/node/policy/shell-plain.test.ts checks the result equals the parser's on random input.
const PLAIN = /^[ \t]*[A-Za-z0-9_./:,+=@%-]+(?:[ \t]+[A-Za-z0-9_./:,+=@%-]+)*[ \t]*$/;
const PLAIN_WORD = /[A-Za-z0-9_./:,+=@%-]+/g;
const SPECIAL_FIRST_WORDS: ReadonlySet<string> = new Set([
  ...["if", "then", "elif", "else", "fi", "for", "select", "in", "do", "done", "while", "until"],
  ...["case", "esac", "function", "time", "coproc", "let"],
  ...["declare", "local", "export", "readonly", "typeset", "nameref"],
]);

export function plainCommand(src: string): ParsedScript | null {
  if (src.length > 4096 || !PLAIN.test(src)) return null;
  const args: Word[] = [];
  for (const m of src.matchAll(PLAIN_WORD)) {
    const value = m[0];
    if (args.length === 0 && (value.includes("=") || SPECIAL_FIRST_WORDS.has(value))) return null;
    args.push({ parts: [{ type: "lit", value }], start: m.index, end: m.index + value.length });
  }
  const first = args[0];
  if (first === undefined) return null;
  return {
    src,
    events: [
      {
        kind: "stmt",
        start: first.start,
        end: (args[args.length - 1] as Word).end,
        redirs: [],
        cmd: { type: "call", assigns: [], args },
        hazards: [],
        assigned: [],
        loopNames: [],
      },
    ],
  };
}

/**
 * Parses a bash script into its statements and assignments in syntax.Walk's pre-order.
 * Throws a plain Error with the parser's message on bad syntax, or on an AST it cannot read.
 */
export function parseBash(src: string): ParsedScript {
  // The parser must be available even when it is not needed, so a host that has not loaded
  // it (the Worker before loadShellParser) keeps failing closed on every command alike.
  mvdan();
  return plainCommand(src) ?? parseBashWithParser(src);
}

// GopherJS converts a lone UTF-16 surrogate into UTF-8 together with the character after it,
// so `x\uD800; rm y` reached mvdan/sh without its `;` and `rm y` read as arguments. bash gets
// U+FFFD there and runs `rm y`. No real command has a lone surrogate: refuse to analyse one.
const LONE_SURROGATE = /\p{Cs}/u;

/** The parser's answer alone, without the plain-command shortcut (for tests). */
export function parseBashWithParser(src: string): ParsedScript {
  if (LONE_SURROGATE.test(src)) throw new Error("the command contains an unpaired UTF-16 surrogate");
  return walkFile(rawFile(src), src, opCodes());
}

let codes: OpCodes | undefined;

/** The first statement's command of a one-line script, read raw (for probing operator codes). */
function firstCommand(src: string): RawNode {
  const stmt = children(rawFile(src), "Stmts")[0];
  const cmd = stmt ? child(stmt, "Cmd") : null;
  if (cmd === null) throw new Error(`mvdan-sh: cannot probe ${JSON.stringify(src)}`);
  return cmd;
}

function opOf(node: RawNode | null, src: string): number {
  if (node === null || typeof node.Op !== "number") throw new Error(`mvdan-sh: cannot probe ${src}`);
  return node.Op;
}

/** Operator codes the walk needs, probed from the parser on first use so a rebuild cannot shift them. */
function opCodes(): OpCodes {
  if (!codes) {
    const binary = (src: string) => opOf(firstCommand(src), src);
    const test = (src: string) => opOf(child(firstCommand(src), "X"), src);
    const param = (src: string) => {
      const word = children(firstCommand(src), "Args")[1];
      const part = word ? children(word, "Parts")[0] : undefined;
      return opOf(part ? child(part, "Exp") : null, src);
    };
    const redir = (src: string) => {
      const stmt = children(rawFile(src), "Stmts")[0];
      return opOf(stmt ? (children(stmt, "Redirs")[0] ?? null) : null, src);
    };
    codes = {
      heredoc: new Set([redir("a <<E\nE\n"), redir("a <<-E\nE\n")]),
      pipe: new Set([binary("a | b"), binary("a |& b")]),
      pipeOut: binary("a | b"),
      and: binary("a && b"),
      nameTests: new Set([test("[[ -v a ]]"), test("[[ -R a ]]")]),
      arithTests: new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"].map((op) => test(`[[ a ${op} b ]]`))),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
      paramAt: param("echo ${x@P}"),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
      paramAssign: new Set([param("echo ${x=a}"), param("echo ${x:=a}")]),
      arithAssign: new Set(
        [
          ..."= += -= *= /= %= <<= >>= &= ^= |=".split(" ").map((op) => `((a${op}1))`),
          "((a++))",
          "((a--))",
        ].map(test),
      ),
      arithSet: test("((a=1))"),
    };
  }
  return codes;
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

export type RedirOps = Readonly<Record<keyof typeof redirSources, number>>;
let probed: RedirOps | undefined;

/** Redirect operator codes, probed from the parser on first use so a rebuild cannot shift them. */
export function redirOps(): RedirOps {
  if (!probed) {
    const entries = Object.entries(redirSources).map(([name, src]) => {
      const first = parseBash(src).events[0];
      const op = first?.kind === "stmt" ? first.redirs[0]?.op : undefined;
      if (op === undefined)
        throw new Error(`mvdan-sh: cannot probe redirect operator in ${JSON.stringify(src)}`);
      return [name, op] as const;
    });
    probed = Object.fromEntries(entries) as Record<keyof typeof redirSources, number>;
  }
  return probed;
}
