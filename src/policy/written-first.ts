// The companion reads the disk when the call is judged, before the command runs; an earlier part of the same
// command may rewrite what a later part's disk facts were read from (red team, round 20: `echo '!.env' >
// .ignore; rg API`, `echo '{"packageManager":"yarn@4.5.0"}' > package.json; yarn --version`, `printf … >
// json.py; python3 -m json.tool x`, `printf … > p.diff; git apply --check p.diff`, `cat evil.tar > a.tar;
// tar -xf a.tar -C sub`). After such a part, every fact a later part takes from file contents (ignore files,
// pickers, version files, manifests, patches, archives, module search paths) is not known. Pure.
import type { DiskTarget } from "./call-facts.ts";
import { resolveShellPath } from "./paths.ts";
import type { ShellUnit } from "./shell/units.ts";

/** The first part of the command that may change the disk, as shown, and what is known of where. */
export interface EarlierChange {
  shown: string;
  /** Every change so far is git's own (`git add -A && git commit`): git's later facts are its to keep. */
  gitOnly: boolean;
  /** The paths written (absolute), or null when any file may be (a program run, a path not known). */
  paths: readonly string[] | null;
  /** Every change so far is a redirection (`>`, `>>`): it writes through what is there and makes no link. */
  redirected: boolean;
}

/** Work-tree files git reads its settings from (`.gitattributes` filters, `.gitmodules`, `.git/…`). */
const GIT_READS = /(^|\/)(\.git[^/]*|\.mailmap)(\/|$)/;
/** The ignore files rg, fd and git-aware walks read in the tree and above it, and git's global one. */
const IGNORE_FILES = /(^|\/)(\.git[^/]*|\.ignore|\.rgignore|\.fdignore)(\/|$)|\/git\/ignore$/;
/** What python's start-up imports from a directory: modules, packages, `.pth` files, a venv's settings. */
const PYTHON_READS = /(\.py|\.pyc|\.pth|\.so|\/pyvenv\.cfg)$/;
const GO_READS = /(\/go\.(mod|work|sum)|\.go)$/;

/** A write of one of `dirs` or of a directory on the way to one. */
const onTheWay = (dirs: readonly string[]) => (path: string) =>
  dirs.some((d) => d === path || d.startsWith(`${path}/`));

/** A file whose base name is one of `names`. */
const named = (names: readonly string[]) => (path: string) =>
  names.includes(path.slice(path.lastIndexOf("/") + 1));

/**
 * Which written paths may be a file `t`'s facts come from: those that read files by name only, then any
 * other written path is provably elsewhere; `true` for every other kind (any write may change them).
 */
function mayRead(t: DiskTarget): ((path: string) => boolean) | true {
  switch (t.kind) {
    case "picker":
    case "version-file":
    case "upward":
      return named(t.names);
    case "git":
      return t.patches === undefined ? (p) => GIT_READS.test(p) : true;
    case "walk":
      return (p) => IGNORE_FILES.test(p);
    case "python-start":
      return (p) => PYTHON_READS.test(p);
    case "go-release":
      return named(["go.mod", "go.work"]);
    case "go-module":
      return (p) => GO_READS.test(p);
    case "cargo-workspace":
      return named(["Cargo.toml"]);
    case "npm-config":
      return named([".npmrc"]);
    // What a directory is (a link into a secret one, out of the workspace) changes only with a write of it
    // or of a directory on its way; a file written inside adds a name.
    case "listing":
      return t.pattern === undefined ? onTheWay([t.dir]) : true;
    case "runner-paths":
      return t.paths.some((p) => p.glob) ? true : onTheWay(t.paths.map((p) => p.path));
    default:
      return true;
  }
}

/** Device files a write to changes no file (`2>/dev/null`, `> /dev/stderr`). */
const NO_FILE = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/**
 * Targets whose facts are only where things are (the PATH lookup keeps the writes itself, program-targets.ts),
 * the agent's environment, or a path judged by its own facts with the trees the command made (judge-bash.ts):
 * `echo x > out.txt; cat out.txt` reads what it wrote, as allowed as writing it.
 */
const KEPT: ReadonlySet<DiskTarget["kind"]> = new Set([
  "path",
  "program",
  "env-runs",
  "shell-start",
  "cd",
  "man-path",
  "jvm-env",
  // The environment's names; the file PATH finds for the program is the `program` target's.
  "node-env",
  "unknown",
]);

/**
 * What each unit may change: a write not to a device, any part that is not only a read, or one not parsed. A
 * program that writes or removes files has the ones its words name as write parts right after it (`sed -i`,
 * `truncate`, `install`): its writes are those, when it has any; one with none may write anything (`git
 * checkout REV -- .gitignore`, `unzip`, `npm pkg set`).
 */
export function changesOf(
  units: readonly ShellUnit[],
  callCwd: string,
  home: string | null,
): (EarlierChange | undefined)[] {
  return units.map((unit, i) => {
    if (unit.kind === "read") return undefined;
    if (unit.kind === "write") {
      const path = resolveShellPath(unit, callCwd, home);
      if (path !== null && NO_FILE.test(path)) return undefined;
      // A tree written whole (`mv d e`, `cp -r`, `tar -x`) may hold a file by any name.
      const known = path !== null && !unit.glob && !unit.recursive;
      const redirected = /^(\d+|&)?>/.test(unit.text);
      return { shown: unit.text, gitOnly: false, paths: known ? [path] : null, redirected };
    }
    if (unit.kind === "exec" && unit.effect === "read") return undefined;
    const git = unit.kind === "exec" && unit.program === "git";
    const named = unit.kind === "exec" && unit.effect !== "run" && !git && writesNamed(units, i);
    return { shown: unit.text, gitOnly: git, paths: named ? [] : null, redirected: false };
  });
}

/** Whether a write part follows the exec unit at `i` before the next exec unit. */
function writesNamed(units: readonly ShellUnit[], i: number): boolean {
  for (const u of units.slice(i + 1)) {
    if (u.kind === "exec" || u.kind === "unparsable") return false;
    if (u.kind === "write") return true;
  }
  return false;
}

/** The earlier changes joined: git's own only while every one is. */
export function joinChange(
  a: EarlierChange | undefined,
  b: EarlierChange | undefined,
): EarlierChange | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const paths = a.paths === null || b.paths === null ? null : [...a.paths, ...b.paths];
  return { shown: a.shown, gitOnly: a.gitOnly && b.gitOnly, paths, redirected: a.redirected && b.redirected };
}

/**
 * A later part's target with what an earlier part may have changed: not known when its facts come from
 * file contents the writes may have been to. It stays when every write is known to be elsewhere (`sed -i …
 * x.ts && git diff`), and a git target after git's own parts, unless it reads patch files.
 */
export function afterChange(t: DiskTarget, change: EarlierChange | undefined): DiskTarget {
  if (change === undefined || KEPT.has(t.kind)) return t;
  if (t.kind === "git" && t.patches === undefined && change.gitOnly) return t;
  // A version file's facts are what it is (a link onto a secret, a hard link), which a redirection never
  // makes (`echo 20 >> .nvmrc`); what it prints then is the command's own text.
  if (t.kind === "version-file" && change.redirected) return t;
  const reads = mayRead(t);
  if (reads !== true && change.paths !== null && !change.paths.some(reads)) return t;
  return {
    kind: "unknown",
    shown: t.shown,
    reason: `\`${change.shown}\` runs first and may change the files \`${t.shown}\` then reads (ignore files, manifests, patches, archives): the disk's look before the command cannot show them`,
  };
}
