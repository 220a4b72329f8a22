// The files a runner given a directory runs (red team, round 19, r19-16: ~/.bashrc's `make -s -C ~/proj
// motd`, `npm --prefix ~/proj run -s motd`, `go run ~/proj/cmd/motd`; r19-18: `run-parts ~/proj/startup.d`,
// `find ~/proj/init -exec sh {} \;`): the build file in that directory (Makefile, package.json, justfile), or
// the directory itself when every file in it runs. A runner without a directory reads the build file of
// whatever directory the shell starts in: that name is protected in every directory. What a build file goes
// on to include (a Makefile's `include x.mk`, package.json's scripts naming files) is not followed: the build
// file is what decides, and writing it asks. Pure: shell-runs.ts hands each command's words in.
import type { PathPart, Reference } from "./path-references.ts";
import { basename } from "./paths.ts";
import { INTERPRETERS } from "./shell/interpreters.ts";
import { lookup } from "./shell/lookup.ts";
import { type Arg, SHELLS } from "./shell/wrappers.ts";

type WordValues = PathPart[][];

const HOW = "runs its code in every shell";
const ANY: PathPart = { type: "any" };

/**
 * A path as written, from the root; a relative one (`./x`, `tools/x`) below any directory, as the shell's
 * own directory is wherever it starts (a project the person opens).
 */
export function anchored(parts: readonly PathPart[]): PathPart[] {
  const merged = mergedText(parts);
  const head = merged[0];
  if (head?.type === "lit" && head.value.startsWith("/")) return merged;
  const rest =
    head?.type === "lit"
      ? [{ ...head, value: head.value.replace(/^(\.\/+)+/, "") }, ...merged.slice(1)]
      : merged;
  return [ANY, { type: "lit", value: "/" }, ...rest];
}

/** Adjacent literal parts as one (`.` and `/Makefile` as `./Makefile`). */
export function mergedText(parts: readonly PathPart[]): PathPart[] {
  const merged: PathPart[] = [];
  for (const p of parts) {
    const last = merged[merged.length - 1];
    if (p.type === "lit" && last?.type === "lit")
      merged[merged.length - 1] = { ...last, value: last.value + p.value };
    else merged.push(p);
  }
  return merged;
}

interface Runner {
  /** Options whose value is the directory it runs in. */
  dirs: readonly string[];
  /** Options whose value is the build file itself. */
  files: readonly string[];
  /** The build files it reads in that directory. */
  names: readonly string[];
  /** Whether the call runs the build file's code, by its operands (`npm run x` does, `npm config get` not). */
  runs(operands: readonly string[]): boolean;
}

const ALWAYS = () => true;
const NPM_RUNS = new Set(
  ["run", "run-script", "rum", "urn", "test", "tst", "t", "start", "stop", "restart", "exec", "x"].concat([
    "install",
    "i",
    "in",
    "ci",
    "install-test",
    "it",
    "add",
    "rebuild",
    "pack",
    "publish",
  ]),
);
/** yarn, pnpm and bun run a script by its bare name (`yarn motd`): all but their own inert commands run. */
const INERT = new Set(
  ["config", "global", "bin", "prefix", "root", "cache", "info", "view", "why", "list", "ls"].concat([
    "outdated",
    "help",
    "env",
    "store",
    "completion",
    "dlx",
    "--version",
    "-v",
    "--help",
  ]),
);
const PACKAGE = ["package.json"];

const RUNNERS: Readonly<Record<string, Runner>> = {
  make: {
    dirs: ["-C", "--directory"],
    files: ["-f", "--file", "--makefile"],
    names: ["GNUmakefile", "makefile", "Makefile"],
    runs: ALWAYS,
  },
  gmake: {
    dirs: ["-C", "--directory"],
    files: ["-f", "--file", "--makefile"],
    names: ["GNUmakefile", "makefile", "Makefile"],
    runs: ALWAYS,
  },
  just: {
    dirs: ["-d", "--working-directory"],
    files: ["-f", "--justfile"],
    names: ["justfile", ".justfile", "Justfile"],
    runs: ALWAYS,
  },
  npm: { dirs: ["--prefix", "-C"], files: [], names: PACKAGE, runs: (o) => o.some((w) => NPM_RUNS.has(w)) },
  pnpm: { dirs: ["-C", "--dir"], files: [], names: PACKAGE, runs: (o) => !INERT.has(o[0] ?? "help") },
  yarn: { dirs: ["--cwd"], files: [], names: PACKAGE, runs: (o) => !INERT.has(o[0] ?? "install") },
  bun: { dirs: ["--cwd"], files: [], names: PACKAGE, runs: (o) => !INERT.has(o[0] ?? "help") },
};

/** A word's values without the first `n` characters (`--directory=DIR` → DIR). */
function dropPrefix(values: WordValues, n: number): WordValues {
  return values.map((parts) => {
    const [head, ...rest] = parts;
    return head?.type === "lit" ? [{ ...head, value: head.value.slice(n) }, ...rest] : parts;
  });
}

/** An option's value: the next word (`-C DIR`), after `=` (`--directory=DIR`), or attached (`-CDIR`). */
function optionValue(
  argv: readonly Arg[],
  i: number,
  names: readonly string[],
  valuesOf: (a: Arg | undefined) => WordValues,
): { values: WordValues; skip: number } | null {
  const a = argv[i] as Arg;
  const v = a.value ?? "";
  for (const name of names) {
    if (v === name) return { values: valuesOf(argv[i + 1]), skip: 1 };
    const joined = name.startsWith("--") ? `${name}=` : name;
    if (v.length > joined.length && v.startsWith(joined))
      return { values: dropPrefix(valuesOf(a), joined.length), skip: 0 };
  }
  return null;
}

function below(values: WordValues): Reference[] {
  return values.map((parts) => ({ parts: anchored(parts), below: true, how: HOW }));
}

function named(values: WordValues, names: readonly string[]): Reference[] {
  return values.flatMap((parts) =>
    names.map((n) => ({
      parts: anchored([...parts, { type: "lit", value: `/${n}` }]),
      below: false,
      how: HOW,
    })),
  );
}

/** make, just, npm, pnpm, yarn, bun: the build file of the directory they are given, or of any directory. */
function buildFileRuns(runner: Runner, argv: readonly Arg[], valuesOf: (a?: Arg) => WordValues): Reference[] {
  const out: Reference[] = [];
  const operands: string[] = [];
  let dir = false;
  for (let i = 1; i < argv.length; i++) {
    const d = optionValue(argv, i, runner.dirs, valuesOf);
    const f = d === null ? optionValue(argv, i, runner.files, valuesOf) : null;
    if (d !== null) out.push(...named(d.values, runner.names));
    if (f !== null)
      out.push(...f.values.map((parts) => ({ parts: anchored(parts), below: false, how: HOW })));
    if (d !== null || f !== null) {
      dir = true;
      i += (d ?? f)?.skip ?? 0;
    } else if (!(argv[i]?.value ?? "-").startsWith("-")) operands.push(argv[i]?.value ?? "");
  }
  if (!runner.runs(operands)) return [];
  return dir ? out : named([[{ type: "lit", value: "." }]], runner.names);
}

/** `go run DIR|FILE.go…`: the package's directory (every file of it is compiled and run), or the files. */
function goRuns(argv: readonly Arg[], valuesOf: (a?: Arg) => WordValues): Reference[] {
  if (argv[1]?.value !== "run") return [];
  const target = argv.slice(2).find((a) => !(a.value ?? "").startsWith("-"));
  const v = target?.value;
  // A module path (`example.com/x@v1`) is fetched, not the person's: only a path on disk is followed.
  if (target === undefined || (v !== null && v !== undefined && !/^[./~]/.test(v))) return [];
  const values = valuesOf(target);
  return v?.endsWith(".go")
    ? values.map((parts) => ({ parts: anchored(parts), below: false, how: HOW }))
    : below(values);
}

/** `cargo run --manifest-path F`: the crate's directory (its build script and sources run). */
function cargoRuns(argv: readonly Arg[], valuesOf: (a?: Arg) => WordValues): Reference[] {
  for (let i = 1; i < argv.length; i++) {
    const m = optionValue(argv, i, ["--manifest-path"], valuesOf);
    if (m !== null)
      return below(
        m.values.map((parts) => {
          const last = parts[parts.length - 1];
          return last?.type === "lit"
            ? [...parts.slice(0, -1), { ...last, value: last.value.replace(/\/?[^/]*$/, "") }]
            : parts;
        }),
      );
  }
  return [];
}

/** `run-parts DIR`: every executable in DIR runs. */
function runPartsRuns(argv: readonly Arg[], valuesOf: (a?: Arg) => WordValues): Reference[] {
  // Its options with a separate value (`--arg X`, `--regex X`, `-u X`) are rare in a start-up file: `--opt=X`.
  const dir = argv.slice(1).find((a) => !(a.value ?? "").startsWith("-"));
  return dir === undefined ? [] : below(valuesOf(dir));
}

/** A shell, an interpreter or `source`: given a file's name (`sh F`, `. F`), it runs the file. */
export function runsFiles(program: string): boolean {
  const name = basename(program);
  return SHELLS.has(name) || lookup(INTERPRETERS, name) !== undefined || name === "source" || name === ".";
}

/** A program an `-exec` runs a found file with: the file itself, or one that runs files. */
function runsFound(program: string | null): boolean {
  return program === null || program === "{}" || runsFiles(program);
}

/** `find DIR… -exec sh {} \;`: every file under the starting points may run. */
function findRuns(argv: readonly Arg[], valuesOf: (a?: Arg) => WordValues): Reference[] {
  const at = argv.findIndex((a) => /^-(exec|execdir|ok|okdir)$/.test(a.value ?? ""));
  if (at < 0 || !runsFound(argv[at + 1]?.value ?? null)) return [];
  const end = argv.findIndex((a, i) => i > 0 && /^[-(!]/.test(a.value ?? "-"));
  const given = argv.slice(1, end);
  return given.length === 0
    ? below([[{ type: "lit", value: "." }]])
    : given.flatMap((a) => below(valuesOf(a)));
}

/**
 * A build file of whatever directory the command is typed in (`alias m='make -j8'`, a function's `make`: nvm.sh's
 * `nvm install` builds node so): the person's own `make` there runs it anyway, so an alias or a function naming
 * it protects nothing more (one given a directory does). Only a start-up file's own top-level line runs it unasked.
 */
export function runsWhereTyped(r: Reference): boolean {
  return r.how === HOW && r.parts[0]?.type === "any";
}

/** The files a runner given a directory (or the shell's own) runs, by its words. */
export function builderRuns(argv: readonly Arg[], valuesOf: (a?: Arg) => WordValues): Reference[] {
  const name = basename(argv[0]?.value ?? "");
  const runner = lookup(RUNNERS, name);
  if (runner !== undefined) return buildFileRuns(runner, argv, valuesOf);
  if (name === "go") return goRuns(argv, valuesOf);
  if (name === "cargo") return cargoRuns(argv, valuesOf);
  if (name === "run-parts") return runPartsRuns(argv, valuesOf);
  if (name === "find") return findRuns(argv, valuesOf);
  return [];
}
