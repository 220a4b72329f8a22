// Files a program finds in the directory it runs in or one above and acts on: a rust-toolchain file or a
// go.mod `toolchain` line that picks what runs, the version files a shim reads (and files a program
// quotes back), and the file that defines what a runner runs.
import type { DiskTarget } from "./call-facts.ts";
import { resolveShellDir } from "./paths.ts";
import type { ExecUnit } from "./shell/units.ts";
import { unitDir } from "./unit-dir.ts";

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
export function pickerTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
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
export function versionFileTargets(
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
export function upwardTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  if (unit.effects?.effect !== "run" || unit.effects.definedBy.length === 0) return [];
  const names =
    unit.program === "node" && unit.argv.includes("--run") ? ["package.json"] : UPWARD[unit.program];
  if (names === undefined) return [];
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  if (dir === null) return [];
  return [{ kind: "upward", dir, names, shown: unit.text }];
}
