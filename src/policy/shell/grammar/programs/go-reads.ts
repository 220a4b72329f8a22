// The go subcommands that print and change nothing of the project, each as the go command parses it
// (Go 1.19-1.24, `go help <cmd>`): only the options listed here are understood; anything else asks.
// What they read: `go list`, `go doc` and `go fmt` load packages, parsing every .go file of each package
// they name (go/parser quotes the first token it rejects, so a `.go` file linked onto a token prints it),
// and the module graph from go.mod, downloading modules it requires that are not in the module cache
// (the companion's to see: the disk target `go-module`). `go fmt` rewrites the files it formats.
import type { Arg } from "../../wrappers.ts";
import { pathEffect } from "../parse.ts";
import type { Effects, NotUnderstood, OptionSpec, Parsed, ProgramGrammar } from "../spec.ts";
import { flag, opt, optional } from "../spec.ts";

/** Options go knows that these forms must not take: each with what it would do (red team, round 11). */
const REFUSED: Readonly<Record<string, string>> = {
  "-m": "go list -m resolves the module graph, downloading modules from the module proxy into the module cache",
  "-u": "-u asks the module proxy for newer versions",
  "-versions": "-versions asks the module proxy for every version",
  "-retracted": "-retracted asks the module proxy for retractions",
  "-modfile": "-modfile reads (and may write) another file as go.mod",
  "-export": "-export compiles the packages (cgo runs the C compiler with the flags the source names)",
  "-compiled": "-compiled runs cgo, which runs the C compiler with the flags the source names",
  "-toolexec": "-toolexec runs a program for every tool go starts",
  "-overlay": "-overlay reads a file that maps source files onto any other file",
  "-buildvcs": "-buildvcs runs the version control tool (git status) in the repository",
  "-C": "-C changes to another directory before anything else",
  "-w": "go env -w writes the user's go environment file",
  "-reuse": "-reuse reads a file of an earlier run's output",
  "-pgo": "-pgo reads a profile file",
};

/** Of the refused options, those that take a value (the word after them is theirs). */
const VALUED = new Set(["-C", "-modfile", "-overlay", "-toolexec", "-reuse", "-pgo"]);

const refused = (names: string): OptionSpec[] =>
  names.split(" ").map((n) => (VALUED.has(n) ? opt(n, "string", { mode: "refused" }) : flag(n, "refused")));

/** -mod: `readonly` (the default) and `vendor` never change go.mod or download; `mod` does both. */
const MOD = opt("-mod", "string", { choices: ["readonly", "vendor", "mod"], mode: "mod" });

/** A word naming a directory or file (`.`, `./x`, `../x/...`, `/abs`, `x.go`) rather than an import path. */
function isPathLike(v: string): boolean {
  return (
    v === "." ||
    v === ".." ||
    v.startsWith("./") ||
    v.startsWith("../") ||
    v.startsWith("/") ||
    v.endsWith(".go")
  );
}

/** The directory a package pattern names: `./x/...` is `./x`, walked to the bottom. */
function patternRoot(a: Arg): { arg: Arg; below: boolean } {
  const v = a.value ?? "";
  if (v === "..." || v.endsWith("/...")) {
    const root = v === "..." ? "." : v.slice(0, -4) || "/";
    return { arg: { ...a, value: root }, below: true };
  }
  return { arg: a, below: false };
}

/**
 * Package operands: a path (a directory, a `/...` pattern, a .go file) is read by go as it loads the
 * package (its .go files; a pattern every package below); an import path is a package of the standard
 * library, the module cache, or the main module (the disk target walks the main module).
 */
function packageReads(ops: readonly Arg[], out: Effects, dflt: boolean): NotUnderstood | null {
  const named = ops.length === 0 && dflt ? [{ value: ".", raw: ".", glob: false, tilde: false } as Arg] : ops;
  for (const a of named) {
    if (a.value === null) return { word: a.raw, reason: "the package is only known at run time" };
    if (a.tilde) return { word: a.raw, reason: "a package named from a home directory" };
    if (!isPathLike(a.value)) continue;
    if (a.value.endsWith(".go")) {
      out.paths.push(pathEffect("read", a));
      continue;
    }
    const { arg } = patternRoot(a);
    // Go skips symlinked directories in a `...` walk but opens symlinked .go files: walked as a reader that follows.
    out.paths.push(pathEffect("walk", arg, { contents: true, follow: "all" }));
  }
  return null;
}

/** The first option refused by its mode, or `-mod=mod`. */
function refusedOption(p: Parsed): NotUnderstood | null {
  for (const o of p.options) {
    if (o.spec.mode === "refused")
      return { word: o.word.raw, reason: REFUSED[o.spec.names[0] as string] ?? "go refuses it here" };
    if (o.spec.mode === "mod" && o.value?.value === "mod")
      return {
        word: o.word.raw,
        reason: "-mod=mod lets go download missing modules and rewrite go.mod and go.sum",
      };
  }
  return null;
}

const base = {
  singleDash: true,
  permute: false,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
} as const;

/** `go list [-e] [-f fmt | -json[=fields]] [-deps] [-test] [-find] [-tags t] [-mod m] [packages]`. */
export const goList: ProgramGrammar = {
  ...base,
  names: ["go list"],
  options: [
    ...["-e", "-deps", "-test", "-find", "-x", "-n", "-v"].map((n) => flag(n)),
    optional("-json"),
    opt("-f -tags"),
    MOD,
    ...refused(
      "-m -u -versions -retracted -modfile -export -compiled -toolexec -overlay -buildvcs -C -reuse -pgo",
    ),
  ],
  finish(p, out) {
    out.paths = [];
    return refusedOption(p) ?? packageReads(p.operands, out, true);
  },
};

/** `go doc [-all] [-c] [-cmd] [-short] [-src] [-u] [package|[package.]symbol[.method]]`. */
export const goDoc: ProgramGrammar = {
  ...base,
  names: ["go doc"],
  options: [...["-all", "-c", "-cmd", "-short", "-src", "-u"].map((n) => flag(n)), ...refused("-C")],
  finish(p, out) {
    out.paths = [];
    if (p.operands.length > 2)
      return { word: p.operands[2]?.raw ?? "", reason: "go doc takes at most two words" };
    // `go doc ./dir Sym`: only the first word may be a directory; a symbol is a name.
    return refusedOption(p) ?? packageReads(p.operands.slice(0, 1), out, true);
  },
};

/** `go fmt [-n] [-x] [-mod m] [packages]`: runs `gofmt -l -w` on every .go file of the packages. */
export const goFmt: ProgramGrammar = {
  ...base,
  names: ["go fmt"],
  effect: "write",
  options: [flag("-n"), flag("-x"), MOD, ...refused("-modfile -overlay -toolexec -C")],
  finish(p, out) {
    out.paths = [];
    const no = refusedOption(p);
    if (no !== null) return no;
    const named: Arg[] =
      p.operands.length > 0 ? p.operands : [{ value: ".", raw: ".", glob: false, tilde: false }];
    for (const a of named) {
      if (a.value === null || a.tilde || !isPathLike(a.value))
        return {
          word: a.raw,
          reason:
            "go fmt rewrites the files of the package an import path names, which may be anywhere (the standard library, the module cache)",
        };
      const { arg } = patternRoot(a);
      // Every .go file in the directory (or below it) is rewritten in place; the files are read first.
      out.paths.push(pathEffect("walk", arg, { contents: true, follow: "all" }));
      out.paths.push(pathEffect("write", arg, { below: true }));
    }
    return null;
  },
};

/** `go env [-json] [-changed] [var ...]`: prints; `-u` and `-w` write the user's go env file. */
export const goEnv: ProgramGrammar = {
  ...base,
  names: ["go env"],
  options: [flag("-json"), flag("-changed"), flag("-w", "refused"), flag("-u", "refused")],
  finish(p) {
    const o = p.options.find((x) => x.spec.mode === "refused");
    if (o !== undefined)
      return { word: o.word.raw, reason: `go env ${o.name} writes the user's go environment file` };
    return null;
  },
};

/** `go version [-m] [-v] [-json] [file|dir ...]`: reads the named binaries, walking directories. */
export const goVersion: ProgramGrammar = {
  ...base,
  names: ["go version"],
  options: [flag("-m"), flag("-v"), flag("-json")],
  finish(p, out) {
    out.paths = [];
    for (const a of p.operands) out.paths.push(pathEffect("walk", a, { contents: true, follow: "args" }));
    return null;
  },
};

/** `go help [topic ...]`: prints the go command's own documentation. */
export const goHelp: ProgramGrammar = { ...base, names: ["go help"], options: [] };
