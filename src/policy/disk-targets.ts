// What the companion must look at on disk for one canonical call: the files a file tool opens, the
// tree a search tool walks, and for a shell command every path its units read or write (globs kept
// as patterns), every tree a recursive reader walks, every directory `cd` enters and every directory
// git starts its repository discovery from. Pure: the looking is the companion's (guards/disk-view.ts).
import type { DiskTarget } from "./call-facts.ts";
import { expandToolPath, inputPath } from "./capabilities.ts";
import { gitTargets } from "./git-targets.ts";
import { nodeTargets } from "./node-runners.ts";
import { homeFor, normalizePath, resolveShellDir, resolveShellPath } from "./paths.ts";
import { programTargets } from "./program-targets.ts";
import { runnerTargets } from "./runner-targets.ts";
import { analyzeShell } from "./shell/analysis.ts";
import { pythonStart } from "./shell/grammar/programs/python.ts";
import { interpreterScript } from "./shell/interpreters.ts";
import { shellScriptFile } from "./shell/script-runs.ts";
import type { ExecUnit, ShellUnit } from "./shell/units.ts";
import { SHELLS } from "./shell/wrappers.ts";
import type { ToolCall } from "./types.ts";
import { versionQueryPickers } from "./version-query-pickers.ts";
import { searchToolStyle, WIDEST, walkStyleOf } from "./walk-styles.ts";

const MAX_TARGETS = 256;

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** A working directory with a word bash's `cd` reads as an option (`cd --` goes home, `cd -` back). */
function optionLikeDir(cwd: string | null): boolean {
  return cwd?.split("/").some((s) => s.startsWith("-")) === true;
}

/** Programs that list a tree's names without reading contents, and the options that make them follow links. */
const NAME_WALKERS: Readonly<Record<string, RegExp>> = {
  find: /^(-L|-follow)$/,
  du: /^(-[A-Za-z]*L[A-Za-z]*|--dereference)$/,
  tree: /^(-[A-Za-z]*l[A-Za-z]*)$/,
  fd: /^(-[A-Za-z]*L[A-Za-z]*|--follow)$/,
  ls: /^(-[A-Za-z]*L[A-Za-z]*|--dereference)$/,
};

/**
 * The directory `unit` runs in, or the one target that says it is not known here (`why`: what in that
 * directory the decision needs).
 */
function unitDir(unit: ExecUnit, callCwd: string, home: string | null, why: string): string | DiskTarget[] {
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  return dir ?? [{ kind: "unknown", shown: unit.text, reason: why }];
}

/**
 * A name walk reads no contents, so only one that follows links can leave the tree; that one is
 * walked (for links out and size). Its roots: the operands that are not options (`.` when none).
 */
function nameWalks(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  const follows = NAME_WALKERS[unit.program];
  if (follows === undefined || !unit.argv.slice(1).some((w) => follows.test(w))) return [];
  if (unit.program === "ls" && !unit.argv.some((w) => /^-[A-Za-z]*R|^--recursive$/.test(w))) return [];
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  if (dir === null) return [];
  const roots: string[] = [];
  for (const w of unit.words.slice(1)) {
    if (w.value === null || w.glob || w.tilde) continue;
    if (w.value.startsWith("-") || w.value === "!" || w.value === "(" || w.value === ")") {
      if (unit.program === "find") break;
      continue;
    }
    roots.push(w.value);
    if (unit.program === "fd" && roots.length === 1) roots.pop(); // fd's first operand is the pattern
  }
  if (roots.length === 0) roots.push(".");
  const style = { ...WIDEST, content: false };
  return roots.map((r) => ({
    kind: "walk",
    root: normalizePath(r.startsWith("/") ? r : `${dir}/${r}`),
    style,
    shown: unit.text,
  }));
}

/**
 * A walk a program's grammar reports for the names it finds and runs (`node --test` with no files finds
 * its test files, following symlinked directories): walked for links out of the workspace.
 */
function findingWalks(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  const walks =
    unit.effects?.paths.filter((e) => e.access === "walk" && !e.contents && e.follow === "all") ?? [];
  if (walks.length === 0) return [];
  const dir = unitDir(unit, callCwd, home, "it finds the files it runs in a directory not known here");
  if (typeof dir !== "string") return dir;
  const out: DiskTarget[] = [];
  for (const w of walks) {
    const r = w.arg.value;
    if (r === null || w.arg.glob || w.arg.tilde) {
      out.push({
        kind: "unknown",
        shown: unit.text,
        reason: `it finds the files it runs below \`${w.arg.raw}\`, not known here`,
      });
      continue;
    }
    const style = { ...WIDEST, content: false, ...(w.prune !== undefined ? { prune: w.prune } : {}) };
    out.push({
      kind: "walk",
      root: normalizePath(r.startsWith("/") ? r : `${dir}/${r}`),
      style,
      shown: unit.text,
    });
  }
  return out;
}

/** The script a shell or an interpreter runs: read by it, so what it is on disk (a link to a key) counts. */
function scriptTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  const argv = unit.words.map((w) => ({ value: w.value, raw: w.raw, glob: w.glob, tilde: w.tilde }));
  const script = SHELLS.has(unit.program) ? shellScriptFile(argv) : interpreterScript(argv);
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  if (script === null || script.value === null || script.tilde || script.glob || dir === null) return [];
  const path = normalizePath(script.value.startsWith("/") ? script.value : `${dir}/${script.value}`);
  const runs = SHELLS.has(unit.program) ? {} : { runs: true as const };
  return [{ kind: "path", access: "read", path, glob: false, shown: script.raw, ...runs }];
}

/**
 * A command whose only doubt is a glob at the start of a word (grammar/parse.ts): every such word, for the
 * disk to expand (bash passes its matches relative to the directory the command runs in).
 */
function optionGlobTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  if (unit.notUnderstood?.optionGlob !== true) return [];
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  const out: DiskTarget[] = [];
  for (const w of unit.words.slice(1)) {
    if (!w.glob || w.value === null || !/^[*?[]/.test(w.value)) continue;
    if (dir === null) {
      out.push({
        kind: "unknown",
        shown: unit.text,
        reason: `it runs in a directory not known here, where \`${w.raw}\` may match a name like an option`,
      });
      return out;
    }
    out.push({ kind: "names", dir, pattern: w.value, shown: w.raw });
  }
  return out;
}

/** Programs rustup installs as proxies, and the files (in the directory they run in or above) that pick the toolchain. */
const RUSTUP_PROXIES = new Set([
  "rustc",
  "cargo",
  "rustdoc",
  "rustfmt",
  "cargo-fmt",
  "cargo-clippy",
  "clippy-driver",
]);
const TOOLCHAIN_FILES = ["rust-toolchain.toml", "rust-toolchain"];

/** go downloads and runs the release a go.work or go.mod `toolchain` line names (GOTOOLCHAIN=auto). */
const GO_PICKER = { names: ["go.work", "go.mod"], contains: "^\\s*toolchain\\s" };

/** A rustup proxy runs what a rust-toolchain file picks, go what go.mod's `toolchain` line names: the disk says whether one is there. */
function pickerTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  const go = unit.program === "go";
  if (!go && !RUSTUP_PROXIES.has(unit.program)) return [];
  const dir = unitDir(
    unit,
    callCwd,
    home,
    `it runs in a directory not known here, where a ${go ? "go.mod toolchain line" : "rust-toolchain file"} may pick what runs`,
  );
  if (typeof dir !== "string") return dir;
  return go
    ? [
        { kind: "picker", dir, ...GO_PICKER, shown: unit.text },
        { kind: "go-release", dir, shown: unit.text },
      ]
    : [{ kind: "picker", dir, names: TOOLCHAIN_FILES, shown: unit.text }];
}

/** The files version managers' shims read in the directory a program runs in and every one above. */
const VERSION_FILES = [
  ".python-version",
  ".tool-versions",
  ".node-version",
  ".nvmrc",
  ".ruby-version",
  ".go-version",
  ".java-version",
  ".mise.toml",
  "mise.toml",
  "rust-toolchain",
  "rust-toolchain.toml",
];

/**
 * Files a program parses in the directory it runs in or above and quotes back in its output or errors
 * (`npm ls --long` prints the root package.json's fields; cargo's TOML errors quote the offending line of
 * Cargo.toml or .cargo/config.toml): judged as version files are (red team, round 11).
 */
const PARSED_UPWARD: Readonly<Record<string, readonly string[]>> = {
  npm: ["package.json", ".npmrc"],
  npx: ["package.json", ".npmrc"],
  cargo: ["Cargo.toml", ".cargo/config.toml", ".cargo/config"],
  // go quotes each go.mod/go.work line it cannot parse (`go.mod:1: unknown directive: API_TOKEN=…`, red
  // team, round 11), and reads go.sum and vendor/modules.txt beside them.
  go: ["go.mod", "go.work", "go.sum", "go.work.sum", "vendor/modules.txt"],
};

/**
 * Any program may be a shim (asdf and mise shim every tool they install), so every program's directory is
 * looked at for a version file that links elsewhere, once per directory (red team, round 11).
 */
function versionFileTargets(
  unit: ExecUnit,
  callCwd: string,
  home: string | null,
  out: DiskTarget[],
): DiskTarget[] {
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  const names = [...VERSION_FILES, ...(PARSED_UPWARD[unit.program] ?? [])];
  const same = (t: DiskTarget) =>
    t.kind === "version-file" && t.dir === dir && t.names.length === names.length;
  if (dir === null || out.some(same)) return [];
  return [{ kind: "version-file", dir, names, shown: unit.text }];
}

/** go commands that load packages and the module graph (go-reads.ts). */
const GO_LOADS = new Set(["list", "doc", "fmt"]);

/** `go list`/`doc`/`fmt`: the main module they parse and the modules they may download are the disk's to see. */
function goModuleTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  if (unit.program !== "go" || !GO_LOADS.has(unit.argv[1] ?? "")) return [];
  const dir = unitDir(
    unit,
    callCwd,
    home,
    "go loads the module of a directory not known here, whose go.mod may require modules it downloads",
  );
  if (typeof dir !== "string") return dir;
  return [{ kind: "go-module", dir, shown: unit.text }];
}

/** `python3 -m json.tool`, `pip list`: what python loads before them is the disk's to see (guards/python-path.ts). */
function pythonStartTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  const start = pythonStart(unit.program, unit.words);
  if (start === null) return [];
  const dir = unitDir(
    unit,
    callCwd,
    home,
    "python starts in a directory not known here, which -m searches first for the module",
  );
  if (typeof dir !== "string") return dir;
  return [{ kind: "python-start", dir, program: unit.program, module: start.module, shown: unit.text }];
}

/**
 * Runners that find the file defining what they run in the directory they run in or any above it. (make
 * reads only the directory's own Makefile; vitest and jest their root's config.)
 */
const UPWARD: Readonly<Record<string, readonly string[]>> = {
  npm: ["package.json"],
  cargo: ["Cargo.toml"],
  go: ["go.work", "go.mod"],
  pytest: ["pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg", "conftest.py"],
  "py.test": ["pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg", "conftest.py"],
};

/** A runner running project code: where its defining file is, the disk says (red team, round 8: `node --run`). */
function upwardTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  if (unit.effects?.effect !== "run" || unit.effects.definedBy.length === 0) return [];
  const names =
    unit.program === "node" && unit.argv.includes("--run") ? ["package.json"] : UPWARD[unit.program];
  if (names === undefined) return [];
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  if (dir === null) return [];
  return [{ kind: "upward", dir, names, shown: unit.text }];
}

/** npm, or a program npx runs: npm's configuration on disk may move its writes or run code. */
function npmConfigTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  // `npx X`, `npm exec X`, `npm x X`: npm reads its configuration before it runs X.
  const viaNpm = unit.via !== undefined && /^(?:\S*\/)?np[mx](?:\s|$)/.test(unit.via);
  if (unit.program !== "npm" && unit.program !== "npx" && !viaNpm) return [];
  const dir = unitDir(
    unit,
    callCwd,
    home,
    "npm runs in a directory not known here, whose .npmrc may move where it writes or run code",
  );
  if (typeof dir !== "string") return dir;
  return [{ kind: "npm-config", dir, shown: unit.text }, ...npmTreeTargets(unit, dir)];
}

/** npm subcommands that load the project's whole tree (every package.json under node_modules and workspaces). */
const TREE_READERS = new Set([
  "ls",
  "list",
  "la",
  "ll",
  "explain",
  "why",
  "outdated",
  "query",
  "fund",
  "audit",
  "sbom",
]);

function npmTreeTargets(unit: ExecUnit, dir: string): DiskTarget[] {
  if (unit.program !== "npm") return [];
  // Any word that may be such a subcommand (an option's value before it cannot hide one).
  if (!unit.words.slice(1).some((w) => w.value === null || TREE_READERS.has(w.value))) return [];
  return [{ kind: "npm-tree", dir, shown: unit.text }];
}

/** The wrapper a unit runs inside is npx (`npx tsc --version`'s `tsc --version`). */
const VIA_NPX = /^(?:\S*\/)?npx(?:\s|$)/;

/** A bare name npx runs: which program that is, the disk says (guards/npx-bin.ts). */
function npxTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  if (unit.via === undefined || !VIA_NPX.test(unit.via) || unit.program.includes("/")) return [];
  const dir = unitDir(
    unit,
    callCwd,
    home,
    "npx runs it in a directory not known here, where it may not be installed (npx then downloads it)",
  );
  if (typeof dir !== "string") return dir;
  return [{ kind: "npx", dir, name: unit.program, shown: unit.text }];
}

/** Bash's `cd` target word (options and `--` skipped); undefined for a bare `cd` (home). */
function cdWord(unit: ExecUnit): { value: string | null } | undefined {
  let i = 1;
  while (i < unit.words.length) {
    const v = unit.words[i]?.value;
    if (v === "--") {
      i++;
      break;
    }
    if (v === undefined || v === null || !/^-[LPe@]+$/.test(v)) break;
    i++;
  }
  const w = unit.words[i];
  return w === undefined ? undefined : { value: w.tilde ? null : w.value };
}

function shellTargets(command: string, callCwd: string, home: string | null): DiskTarget[] {
  const { units } = analyzeShell(command);
  const out: DiskTarget[] = [];
  let lastExec: ExecUnit | undefined;
  const cds: ExecUnit[] = [];
  const written: string[] = [];
  for (const unit of units as readonly ShellUnit[]) {
    if (out.length >= MAX_TARGETS) {
      out.push({
        kind: "unknown",
        shown: command.slice(0, 80),
        reason: "the command names too many paths to check",
      });
      break;
    }
    if (unit.kind === "unparsable") continue;
    if (unit.cwd !== null && /[*?[]/.test(unit.cwd)) {
      out.push({
        kind: "unknown",
        shown: unit.text,
        reason: "it runs after a `cd` into a glob, which bash expands to a directory not known here",
      });
      continue;
    }
    if (optionLikeDir(unit.cwd)) {
      out.push({
        kind: "unknown",
        shown: unit.text,
        reason: "it runs after a `cd` whose word bash reads as an option (`cd --` goes home, `cd -` back)",
      });
      continue;
    }
    if (unit.kind === "exec") {
      out.push(...programTargets(unit, lastExec, callCwd, home, written, out));
      lastExec = unit;
      if (unit.program === "cd" || unit.program === "pushd") {
        cds.push(unit);
        const word = cdWord(unit);
        const base = resolveShellDir(unit.cwd, callCwd, home);
        if (word?.value && base !== null && !word.value.startsWith("/"))
          out.push({ kind: "cd", dir: normalizePath(`${base}/${word.value}`), shown: unit.text });
      } else if (unit.program === "git") out.push(...gitTargets(unit, cds, callCwd, home));
      else
        out.push(
          ...nameWalks(unit, callCwd, home),
          ...findingWalks(unit, callCwd, home),
          ...optionGlobTargets(unit, callCwd, home),
          ...scriptTargets(unit, callCwd, home),
          ...pickerTargets(unit, callCwd, home),
          ...versionQueryPickers(unit, callCwd, home),
          ...goModuleTargets(unit, callCwd, home),
          ...pythonStartTargets(unit, callCwd, home),
          ...(unit.program === "man" ? [{ kind: "man-path" as const, shown: unit.text }] : []),
          ...npxTargets(unit, callCwd, home),
          ...npmConfigTargets(unit, callCwd, home),
          ...upwardTargets(unit, callCwd, home),
          ...nodeTargets(unit, callCwd, home),
          ...runnerTargets(unit, callCwd, home),
          ...versionFileTargets(unit, callCwd, home, out),
        );
      continue;
    }
    const path = resolveShellPath(unit, callCwd, home);
    // An unknown path already needs a person; there is nothing on disk to look at.
    if (path === null) continue;
    if (unit.tracked !== undefined) {
      out.push({ kind: "tracked", dir: path, nul: unit.tracked.nul, shown: unit.text });
      continue;
    }
    if (unit.kind === "write") written.push(path);
    if (unit.recursive) {
      const style =
        unit.walk ?? (unit.operand && lastExec ? walkStyleOf(lastExec.program, lastExec.argv) : WIDEST);
      out.push({
        kind: "walk",
        root: path,
        style,
        shown: unit.text,
        ...(unit.glob ? { glob: true as const } : {}),
      });
    } else
      out.push({
        kind: "path",
        access: unit.kind,
        path,
        glob: unit.glob,
        shown: unit.text,
        ...(unit.entries === true ? { entries: true as const } : {}),
        ...(unit.opens === true ? { opens: true as const } : {}),
      });
  }
  return out;
}

const WILD = /[*?[{\\]/;

/**
 * The directory a file-name search (Glob) lists, as LS would be given it: its `path` joined with the
 * pattern's fixed leading directories (`homelink/*` lists homelink). A link out on that way is then
 * found as it is for LS, Grep and Read (red team, round 11). Undefined when it is the session's directory.
 */
function globDirectory(path: string | undefined, pattern: string | undefined): string | undefined {
  const segments = (pattern ?? "").split("/");
  const wildAt = segments.findIndex((seg) => WILD.test(seg));
  const fixed = (wildAt < 0 ? segments.slice(0, -1) : segments.slice(0, wildAt)).filter((seg) => seg !== "");
  if (fixed.length === 0) return path;
  return path === undefined ? fixed.join("/") : `${path}/${fixed.join("/")}`;
}

/**
 * Every absolute path a file tool may open for the name it is given (red team, round 14): Pi's (Unicode spaces
 * made spaces) and Claude Code's (the name as given); for a read or an edit, also the spellings each falls
 * back to when the named file is missing: the macOS screenshot name (U+202F before `AM.`/`PM.`, Pi and Claude
 * Code), the NFD form and a curly apostrophe (Pi). A spelling that does not exist adds nothing on the disk.
 */
function toolSpellings(given: string, cwd: string, home: string | null, fallbacks: boolean): string[] {
  const bases = [
    expandToolPath(given, cwd, home, true),
    expandToolPath(given, cwd, home, true, "as-given"),
  ].filter((p): p is string => p !== null);
  const out = new Set(bases);
  if (fallbacks)
    for (const p of bases) {
      out.add(p.replace(/ (AM|PM)\./g, "\u202f$1."));
      out.add(p.normalize("NFD"));
      out.add(p.replace(/'/g, "\u2019"));
      out.add(p.normalize("NFD").replace(/'/g, "\u2019"));
    }
  return [...out];
}

/** The disk targets of one canonical call (after the tool-name table). */
export function diskTargetsOf(call: ToolCall): DiskTarget[] {
  const home = homeFor(call.cwd, call.home);
  const cwd = normalizePath(call.cwd);
  const { tool, input } = call;
  if (tool === "bash") {
    const command = str(input.command);
    return command === undefined ? [] : shellTargets(command, cwd, home);
  }
  const raw = tool === "find" ? globDirectory(str(input.path), str(input.pattern)) : inputPath(input);
  const given = typeof raw === "string" ? raw : undefined;
  // As the kernel will walk it: `lnk/../x` is beside lnk's target, not `x` here.
  const path = given === undefined ? cwd : expandToolPath(given, cwd, home, true);
  if (path === null) return [];
  const shown = given ?? ".";
  if (
    given !== undefined &&
    (tool === "read" || tool === "ls" || tool === "find" || tool === "write" || tool === "edit")
  ) {
    const access = tool === "write" || tool === "edit" ? "write" : "read";
    return toolSpellings(given, cwd, home, tool === "read" || tool === "edit").map((p) => ({
      kind: "path",
      access,
      path: p,
      glob: false,
      shown,
    }));
  }
  if (tool === "read" || tool === "ls" || tool === "find" || tool === "write" || tool === "edit") return [];
  // Airlock's own MCP grep opens every file through the companion's guard (no secret, no hard link, no
  // link out), so what it walks reaches nothing the walk would find; every other search tool is walked.
  if (tool === "grep")
    return call.agent?.startsWith("mcp:")
      ? []
      : [{ kind: "walk", root: path, style: searchToolStyle(str(input.glob)), shown }];
  return [];
}
