// The hand-written walk over mvdan/sh's raw AST (shell-walk.ts) against the library's own
// syntax.Walk, construct by construct, plus its fail-closed behaviour on shapes it does not know.
import fc from "fast-check";
import sh from "mvdan-sh";
import { describe, expect, it } from "vitest";
import { analyzeShell } from "../../../src/policy/index.ts";
import { parseBash } from "../../../src/policy/shell/parser.ts";
import { type RawNode, walkFile } from "../../../src/policy/shell/walk.ts";
import { ALLOWLIST, bash, compile, user } from "./helpers.ts";

const policy = compile(user(ALLOWLIST));

/** Statements and assignments as syntax.Walk visits them: [kind, byte offset]. */
function libraryEvents(src: string): [string, number][] {
  const { syntax } = sh;
  const file = syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(src, "");
  const out: [string, number][] = [];
  syntax.Walk(file, (node) => {
    if (node === null) return true;
    const type = syntax.NodeType(node);
    if (type === "Stmt") out.push(["stmt", node.Pos().Offset()]);
    else if (type === "Assign") out.push(["assign", node.Pos().Offset()]);
    return true;
  });
  return out;
}

function ourEvents(src: string): [string, number][] {
  // Scope marks (subshells, loops, function bodies) are ours alone.
  return parseBash(src).events.flatMap((e): [string, number][] =>
    e.kind === "stmt" || e.kind === "assign" ? [[e.kind, e.start]] : [],
  );
}

// One script per construct; each hides `rm` somewhere only a complete walk reaches.
const CONSTRUCTS: [string, string][] = [
  ["subshell", "(ls; rm a)"],
  ["group", "{ ls; rm a; }"],
  ["if/elif/else", "if ls; then ls; elif rm a; then ls; else rm b; fi"],
  ["for in", "for f in $(rm a); do rm b; done"],
  ["c-style for", "for ((i=$(rm a); i<1; i++)); do rm b; done"],
  ["select", "select x in $(rm a); do rm b; done"],
  ["while/until", "while rm a; do ls; done; until ls; do rm b; done"],
  ["case", "case $(rm a) in $(rm b)) rm c;; *) ls;& esac"],
  ["$(...)", "echo $(rm a)"],
  ["backticks", "echo `rm a`"],
  ["process substitution", "diff <(rm a) >(rm b)"],
  ["here-doc body", "cat <<EOF\n$(rm a)\nEOF"],
  ["here-doc to bash", "bash <<'EOF'\nrm a\nEOF"],
  ["here-string", "cat <<< $(rm a)"],
  ["redirect target", "ls > $(rm a)"],
  ["bash -c", "bash -c 'ls; rm a'"],
  ["eval", "eval 'rm a'"],
  ["wrappers", "sudo env A=1 timeout 5 rm a"],
  ["assignment value", "X=$(rm a) ls"],
  ["array assignment", "a=($(rm a) [$(rm b)]=v)"],
  ["indexed assignment", "a[$(rm a)]=1"],
  ["declaration", "local -r X=$(rm a) Y"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal shell parameter expansion
  ["parameter default", "echo ${x:-$(rm a)}"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal shell parameter expansion
  ["parameter replace", "echo ${x/$(rm a)/$(rm b)}"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal shell parameter expansion
  ["parameter index", "echo ${x[$(rm a)]}"],
  ["arithmetic expansion", "echo $(( $(rm a) + 1 ))"],
  ["arithmetic command", "(( x = $(rm a) ))"],
  ["let", "let x=$(rm a)"],
  ["test clause", '[[ -n "$(rm a)" && ( x == $(rm b) ) ]]'],
  ["function", "f() { rm a; }; function g { rm b; }"],
  ["time", "time rm a"],
  ["coproc", "coproc C { rm a; }; coproc rm b"],
  ["negation and background", "! rm a & ls"],
  ["pipes and lists", "ls | rm a |& ls && rm b || ls; rm c"],
];

describe("the raw walk visits what syntax.Walk visits, in the same order", () => {
  for (const [construct, src] of CONSTRUCTS) {
    it(`${construct}: ${JSON.stringify(src)}`, () => {
      expect(ourEvents(src)).toEqual(libraryEvents(src));
      expect(bash(policy, src).action).toBe("deny");
    });
  }

  it("on random compositions of those constructs", () => {
    // Here-docs end at their delimiter line, so they cannot be joined on one line.
    const oneLine = CONSTRUCTS.map(([, s]) => s).filter((s) => !s.includes("<<"));
    const piece = fc.constantFrom(...oneLine, "ls", "echo hi > out");
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 4 }),
        fc.constantFrom("; ", " && ", "\n"),
        (ps, j) => {
          const src = ps.join(j);
          expect(ourEvents(src)).toEqual(libraryEvents(src));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("also reaches parameter slices (x:offset:length), which syntax.Walk skips (they ran unjudged)", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal shell parameter expansion
    const src = "echo ${x:$(rm a):$(rm b)}";
    expect(libraryEvents(src)).toHaveLength(1);
    expect(ourEvents(src)).toHaveLength(3);
    expect(bash(policy, src).action).toBe("deny");
  });
});

describe("extended globs", () => {
  it("a substitution inside an extglob pattern (literal text to mvdan/sh, run by bash) asks", () => {
    for (const src of ["echo @(a|$(rm a))", "ls !(x|`rm a`)", "ls +(<(rm a))"]) {
      const r = bash(compile(user("default_action: allow\n")), src);
      expect(r.action, src).toBe("ask");
      expect(r.reasons.join(" ")).toMatch(/extended glob/);
    }
  });
  it("a plain extglob pattern is fine", () => {
    expect(analyzeShell("ls @(a|b).txt").units).toMatchObject([{ kind: "exec", argv: ["ls", "@(a|b).txt"] }]);
  });
});

describe("offsets and text outside ASCII", () => {
  it("maps mvdan/sh's UTF-8 byte offsets back to the string", () => {
    const units = analyzeShell("echo 'héllo wörld' > 文件.txt; rm ünï").units;
    expect(units).toMatchObject([
      { kind: "write", path: "文件.txt", text: "> 文件.txt" },
      { kind: "exec", argv: ["echo", "héllo wörld"], text: "echo héllo wörld", dynamic: null },
      { kind: "exec", argv: ["rm", "ünï"], text: "rm ünï", dynamic: null },
      { kind: "write", path: "ünï" },
    ]);
  });
  it("an unpaired surrogate (which the GopherJS runtime merges with the next character) asks", () => {
    const allowAll = compile(user("default_action: allow\n"));
    for (const src of [
      "echo 'a\uDC00b' > f\uD800; rm y",
      "echo x\uD800; rm -rf /",
      "bash -c 'ls\uDBFF; rm z'",
    ]) {
      const r = bash(allowAll, src);
      expect(r.action, JSON.stringify(src)).toBe("ask");
      expect(r.reasons.join(" ")).toMatch(/unpaired UTF-16 surrogate/);
    }
  });
  it("handles characters outside the BMP", () => {
    const units = analyzeShell("echo 😀 && rm 😀x").units;
    expect(units.map((u) => u.text)).toEqual(["echo 😀", "rm 😀x", "😀x"]);
  });
});

describe("the walk fails closed on shapes it does not know", () => {
  const pos = { Offset: () => 0 };
  const slice = (items: unknown[]) => ({ $array: items, $offset: 0, $length: items.length });
  const node = (type: string, fields: Record<string, unknown>) =>
    ({ constructor: { string: type }, Pos: () => pos, End: () => pos, ...fields }) as unknown as RawNode;
  const file = (stmt: RawNode) => node("*syntax.File", { Stmts: slice([stmt]) });
  const ops = {
    pipe: new Set<number>(),
    pipeOut: -1,
    and: -1,
    nameTests: new Set<number>(),
    arithTests: new Set<number>(),
    paramAt: -1,
    paramAssign: new Set<number>(),
    arithAssign: new Set<number>(),
    arithSet: -1,
    heredoc: new Set<number>(),
  };

  it("an unknown node type throws (the analysis then reports the command unparsable → ask)", () => {
    const stmt = node("*syntax.Stmt", { Cmd: node("*syntax.TestDecl", {}), Redirs: slice([]) });
    expect(() => walkFile(file(stmt), "x", ops)).toThrow(/unsupported shell syntax \(TestDecl\)/);
  });
  it("a missing field throws rather than reading as empty", () => {
    const stmt = node("*syntax.Stmt", {
      Cmd: node("*syntax.CallExpr", { Args: slice([]) }),
      Redirs: slice([]),
    });
    expect(() => walkFile(file(stmt), "x", ops)).toThrow(/no list Assigns/);
  });
  it("a field of the wrong kind throws", () => {
    const stmt = node("*syntax.Stmt", { Cmd: "ls", Redirs: slice([]) });
    expect(() => walkFile(file(stmt), "x", ops)).toThrow(/no field Cmd/);
  });
});
