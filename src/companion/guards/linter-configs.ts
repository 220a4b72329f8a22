// A linter's configuration files on disk and what they name (red team, round 20, r20-s05): biome 2.6.8
// printed ~/.netrc's lines in its parse errors when a biome.json, in the directory or nested below it,
// extended `../home/.netrc`. Every config file in the workspace (nested ones load as the linter reaches
// their directory) and above the directory it runs in is parsed; each path it names must be in the
// workspace, by its real path, and no secret. What it names is policy/linter-configs.ts's.
import { type Dirent, readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { CallFact, DiskTarget } from "../../policy/call-facts.ts";
import { LINTERS, linterConfigNames } from "../../policy/linter-configs.ts";
import { isDenylistedPath } from "../../policy/secret-paths.ts";
import { type Context, realWorkspace } from "./disk-context.ts";
import { lstatEntry } from "./fs-entry.ts";
import { isWithin, realPathOf } from "./real-path.ts";
import { textFileOrNull } from "./text-file.ts";
import { shownPath } from "./tree-walk.ts";

/** Directories no linter here looks for configs in, and that are too large to walk for each call. */
const SKIPPED = new Set([".git", "node_modules"]);
/** An extends chain is followed this deep. */
const MAX_DEPTH = 4;

/** The config files named `names` below `root` (links too, as the linter opens them), or why not known. */
function configsBelow(root: string, names: readonly string[], bound: number): string[] | { unknown: string } {
  const out: string[] = [];
  const dirs = [root];
  let seen = 0;
  for (let d = dirs.pop(); d !== undefined; d = dirs.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    seen += entries.length;
    if (seen > bound)
      return {
        unknown: `the workspace has more than ${bound} entries to look through for configuration files`,
      };
    for (const e of entries) {
      if (e.isDirectory() && !SKIPPED.has(e.name)) dirs.push(join(d, e.name));
      else if (names.includes(e.name)) out.push(join(d, e.name));
    }
  }
  return out;
}

/** The config files in `dir` and every directory above it that is not the workspace's. */
function configsAbove(dir: string, workspace: string, names: readonly string[]): string[] {
  const out: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    if (!isWithin(workspace, d))
      for (const n of names) if (lstatEntry(join(d, n)) !== undefined) out.push(join(d, n));
    if (dirname(d) === d) return out;
  }
}

/** Why the linter opening `path` (a config, or a path one names) needs a person; `inside`: it must stay in the workspace. */
function pathWhy(path: string, inside: boolean, ctx: Context): string | null {
  if (inside && !isWithin(ctx.workspace, path)) return `\`${path}\` is out of the workspace`;
  const st = lstatEntry(path);
  if (st === undefined) return null;
  const r = realPathOf(path);
  if (!r.ok) return `\`${path}\` cannot be resolved (${r.reason})`;
  const where = shownPath(r.real, ctx.workspace);
  if (isDenylistedPath(where)) return `\`${where}\` is a secret`;
  if (!inside) return null;
  if (!isWithin(realWorkspace(ctx), r.real))
    return `\`${path}\` leads out of the workspace, to \`${r.real}\``;
  return st.isFile() && st.nlink > 1 ? `\`${where}\` is a hard link, whose other name may be a secret` : null;
}

/**
 * The first reason a config file, or a path it (or a file it extends) names, needs a person. `dir`: where
 * the linter runs, from which a `fromCwd` linter opens the config's relative paths.
 */
function configWhy(
  linter: string,
  file: string,
  dir: string,
  inside: boolean,
  ctx: Context,
  depth: number,
): string | null {
  const own = pathWhy(file, inside, ctx);
  if (own !== null) return own;
  const text = textFileOrNull(file);
  if (text === null) return null;
  const home = ctx.env.HOME ?? null;
  const names = linterConfigNames(linter, basename(file), text, dirname(file), home);
  if ("unknown" in names) return names.unknown;
  const fromCwd = LINTERS[linter]?.fromCwd
    ? linterConfigNames(linter, basename(file), text, dir, home)
    : null;
  if (fromCwd !== null && !("unknown" in fromCwd)) {
    names.paths.push(...fromCwd.paths);
    names.chained.push(...fromCwd.chained);
  }
  for (const p of names.paths) {
    const why = pathWhy(p, inside, ctx);
    if (why !== null) return `\`${shownPath(file, ctx.workspace)}\` names a path: ${why}`;
  }
  if (depth >= MAX_DEPTH)
    return names.chained.length > 0 ? `\`${file}\` extends files deeper than ${MAX_DEPTH}` : null;
  for (const p of names.chained) {
    const why = configWhy(linter, p, dir, inside, ctx, depth + 1);
    if (why !== null) return why;
  }
  return null;
}

/** What the linter's configuration makes it read that needs a person, or null. */
export function linterConfigFact(
  t: Extract<DiskTarget, { kind: "linter-config" }>,
  ctx: Context,
): CallFact | null {
  const row = LINTERS[t.linter];
  if (row === undefined) return { subject: t.shown, reason: `${t.linter}'s configuration is not known here` };
  // biome's own override of where its configuration is (biome 2: BIOME_CONFIG_PATH).
  if (t.linter === "biome" && ctx.env.BIOME_CONFIG_PATH)
    return {
      subject: t.shown,
      reason: "BIOME_CONFIG_PATH names the configuration it reads, not looked at here",
    };
  // ruff writes its cache where RUFF_CACHE_DIR says, and in `.ruff_cache` of the directory it runs in.
  if (t.linter === "ruff" && ctx.env.RUFF_CACHE_DIR)
    return { subject: t.shown, reason: "RUFF_CACHE_DIR names where it writes its cache, not looked at here" };
  if (t.linter === "yamllint" && ctx.env.YAMLLINT_CONFIG_FILE)
    return {
      subject: t.shown,
      reason: "YAMLLINT_CONFIG_FILE names the configuration it reads, not looked at here",
    };
  const cache = t.linter === "ruff" ? pathWhy(join(t.dir, ".ruff_cache"), true, ctx) : null;
  if (cache !== null) return { subject: t.shown, reason: `its cache directory: ${cache}` };
  const below = configsBelow(ctx.workspace, row.names, ctx.walkBound);
  if (!Array.isArray(below)) return { subject: t.shown, reason: below.unknown };
  const files = [
    ...below.map((f) => ({ f, inside: true })),
    ...configsAbove(t.dir, ctx.workspace, row.names).map((f) => ({ f, inside: false })),
  ];
  for (const { f, inside } of files) {
    // A config's directory is a project root, where ruff keeps its cache.
    const cacheWhy =
      t.linter === "ruff" && inside ? pathWhy(join(dirname(f), ".ruff_cache"), true, ctx) : null;
    const why = cacheWhy ?? configWhy(t.linter, f, t.dir, inside, ctx, 0);
    if (why !== null)
      return { subject: t.shown, reason: `its configuration reaches past what the judge saw: ${why}` };
  }
  return null;
}
