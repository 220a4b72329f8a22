// What package managers and module loaders read before they run: npm's configuration and tree, the
// program npx runs by a bare name, the go module graph, and what python loads at start.
import type { DiskTarget } from "./call-facts.ts";
import { pythonStart } from "./shell/grammar/programs/python.ts";
import type { ExecUnit } from "./shell/units.ts";
import { unitDir } from "./unit-dir.ts";

/** go commands that load packages and the module graph (go-reads.ts), and the builders, which download as they do. */
const GO_LOADS = new Set(["list", "doc", "fmt"]);
const GO_BUILDS = new Set(["build", "test", "vet", "run", "install"]);

/** `go list`/`doc`/`fmt` and the builders: the modules they may download (and the listers' parsed files) are the disk's to see. */
export function goModuleTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  const sub = unit.argv[1] ?? "";
  if (unit.program !== "go" || !(GO_LOADS.has(sub) || GO_BUILDS.has(sub))) return [];
  const dir = unitDir(
    unit,
    callCwd,
    home,
    "go loads the module of a directory not known here, whose go.mod may require modules it downloads",
  );
  if (typeof dir !== "string") return dir;
  return [{ kind: "go-module", dir, walk: GO_LOADS.has(sub), shown: unit.text }];
}

/** cargo subcommands that load no manifest. */
const CARGO_NO_MANIFEST = new Set(["version", "help", "search", "login", "logout", "new", "init", "install"]);

/** A cargo command that loads the workspace: its members' and path dependencies' manifests are the disk's to see. */
export function cargoWorkspaceTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  if (unit.program !== "cargo") return [];
  const sub = unit.argv.slice(1).find((w) => !w.startsWith("-"));
  if (sub === undefined || CARGO_NO_MANIFEST.has(sub)) return [];
  const dir = unitDir(unit, callCwd, home, "cargo loads the workspace of a directory not known here");
  if (typeof dir !== "string") return dir;
  return [{ kind: "cargo-workspace", dir, shown: unit.text }];
}

/** `python3 -m json.tool`, `pip list`: what python loads before them is the disk's to see (guards/python-path.ts). */
export function pythonStartTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
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

/** npm, or a program npx runs: npm's configuration on disk may move its writes or run code. */
export function npmConfigTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
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

/**
 * The wrapper a unit runs inside is npx (`npx tsc --version`'s `tsc --version`): npx finds its program itself
 * (node_modules/.bin first), and guards/npx-bin.ts judges that lookup.
 */
export const VIA_NPX = /^(?:\S*\/)?npx(?:\s|$)/;

/** A bare name npx runs: which program that is, the disk says (guards/npx-bin.ts). */
export function npxTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
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
