// What the go command loads when it loads packages (`go list`, `go doc`, `go fmt`, and `go build`, `test`,
// `vet`, `run`, `install`, which load the same graph: fix15e, issue 20), found as go finds it:
// the nearest go.mod from the directory up is the main module, whose .go files it parses; a go.work from
// the directory up (workspace mode) brings in other modules. Loading the module graph downloads every
// module go.mod requires that is not in the module cache (go 1.19: `go list ./...` with a go.sum entry
// printed `go: downloading rsc.io/quote v1.5.2`), from the module proxy or, for a private path, from the
// module's own host by git — outbound traffic the command's text does not show (red team, round 12),
// unless the agent's environment keeps go offline (`offline` below) or every module is already in the module
// cache (go-module-cache.ts).
import { accessSync, constants, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { lstatEntry } from "./fs-entry.ts";
import { requiredModulesCached } from "./go-module-cache.ts";
import { isWithin } from "./real-path.ts";
import { textFileOrNull } from "./text-file.ts";
import { shownPath } from "./tree-walk.ts";

/** A go.mod directive that makes go load another module: a requirement, or a replacement (a directory or a version). */
const LOADS_MODULES = /^\s*(require|replace)\b/m;
const REPLACES = /^\s*replace\b/m;

/**
 * The agent's environment keeps go off the network: GOPROXY=off (go: "module lookup disabled by GOPROXY=off"
 * for every module GONOPROXY does not match, so with GONOPROXY and GOPRIVATE empty nothing is fetched, by
 * proxy or by git), GOSUMDB=off (a cached module missing from go.sum is otherwise checked against
 * sum.golang.org), and no -mod=mod in GOFLAGS (which rewrites go.mod). What it requires is then read from the
 * module cache or not at all. (No go on the machine these rules were written on: the reading is go's
 * documentation and its own test script mod_gonoproxy.txt.)
 */
function offline(env: NodeJS.ProcessEnv): boolean {
  const empty = (name: string) => (env[name] ?? "") === "";
  return (
    env.GOPROXY === "off" && env.GOSUMDB === "off" && empty("GONOPROXY") && empty("GOPRIVATE") && !modMod(env)
  );
}

/** -mod=mod in GOFLAGS: go may rewrite go.mod, looking up a module for an import none provides. */
function modMod(env: NodeJS.ProcessEnv): boolean {
  return /-mod(=|\s+)mod\b/.test(env.GOFLAGS ?? "");
}

function nearest(dir: string, name: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    const p = join(d, name);
    if (lstatEntry(p) !== undefined) return p;
    if (dirname(d) === d) return null;
  }
}

/**
 * Facts about the module go would load from `dir`, and the main module's directory to walk for the .go
 * files it parses (null when there is none, or when a fact already asks).
 */
export function goModuleFacts(
  dir: string,
  workspace: string,
  shown: string,
  env: NodeJS.ProcessEnv,
): { facts: CallFact[]; root: string | null } {
  const work = nearest(dir, "go.work");
  if (work !== null)
    return {
      facts: [
        {
          subject: shown,
          reason: `\`${shownPath(work, workspace)}\` puts go in workspace mode: it loads every module the file uses, and downloads what they require`,
        },
      ],
      root: null,
    };
  const mod = nearest(dir, "go.mod");
  if (mod === null) return { facts: [], root: null };
  const root = dirname(mod);
  if (!isWithin(workspace, root))
    return {
      facts: [
        {
          subject: shown,
          reason: `the module go loads is \`${root}\`, out of the workspace: go parses its files`,
        },
      ],
      root: null,
    };
  const text = textFileOrNull(mod);
  // With vendor/modules.txt beside go.mod, go builds from vendor/ (-mod=vendor, the default since go 1.14).
  const vendored = textFileOrNull(join(root, "vendor", "modules.txt")) !== null;
  // Nothing to fetch where the environment keeps go offline or every requirement is already in the cache.
  const quiet = offline(env) || (!modMod(env) && requiredModulesCached(text ?? "", env));
  const fetches = LOADS_MODULES.test(text ?? "") && !(quiet && !REPLACES.test(text ?? ""));
  if (text === null || (fetches && !vendored))
    return {
      facts: [
        {
          subject: shown,
          reason: `\`${shownPath(mod, workspace)}\` ${text === null ? "cannot be read" : "requires modules not all in the module cache"}: go downloads them (from the module proxy, or the module's own host), outbound traffic the command does not show`,
        },
      ],
      root: null,
    };
  return { facts: [], root };
}

/** A go version as numbers (`1.22.5`, `1.21rc1` as 1.21.0, `go1.19.8`); null when it is none. */
function versionOf(text: string): number[] | null {
  const m = /^(?:go)?(\d+)\.(\d+)(?:\.(\d+))?/.exec(text.trim());
  return m === null ? null : [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

function newer(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return false;
}

/** The release of the `go` first on PATH, from its GOROOT's VERSION file; null when none is found. */
function installedGo(env: NodeJS.ProcessEnv): number[] | null {
  for (const dir of (env.PATH ?? "").split(":")) {
    if (dir === "") continue;
    const bin = join(dir, "go");
    try {
      accessSync(bin, constants.X_OK);
    } catch {
      continue;
    }
    try {
      const root = dirname(dirname(realpathSync.native(bin)));
      return versionOf(textFileOrNull(join(root, "VERSION")) ?? "");
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Since go 1.21 (GOTOOLCHAIN=auto), any go command run where go.work or go.mod says `go X` with X newer
 * than the installed release downloads go X and runs it (red team, round 12, from go.dev/doc/toolchain:
 * "If the go line is newer than the local toolchain, the go command switches"). A `toolchain` line is
 * the disk target `picker`'s; this is the `go` line.
 */
export function goReleaseFact(
  dir: string,
  env: NodeJS.ProcessEnv,
  workspace: string,
  shown: string,
): CallFact | null {
  if ((env.GOTOOLCHAIN ?? "auto").startsWith("local")) return null;
  const file = nearest(dir, "go.work") ?? nearest(dir, "go.mod");
  if (file === null) return null;
  const line = /^\s*go\s+(\S+)/m.exec(textFileOrNull(file) ?? "");
  const wanted = line === null ? null : versionOf(line[1] as string);
  const installed = installedGo(env);
  if (wanted === null || installed === null || newer([1, 21, 0], installed) || !newer(wanted, installed))
    return null;
  return {
    subject: shown,
    reason: `\`${shownPath(file, workspace)}\` asks for go ${line?.[1]}, newer than the installed go ${installed.join(".")}: go downloads that release and runs it (GOTOOLCHAIN=auto)`,
  };
}
