// The manifests cargo loads beyond the directory's own Cargo.toml and those above it (which are version
// files: upward-files.ts): the workspace's members (`members`, globs too) and every path dependency, of
// each of them in turn. strace of `cargo metadata --no-deps` (cargo 1.95) opens all of them, an outside
// `path = "../x"` too, and cargo quotes a manifest's bad line in its error and prints its fields (red team,
// round 16: `crates/*` with crates/a/Cargo.toml linked to ~/.aws/credentials printed the key).
import { dirname, join, resolve } from "node:path";
import { parse } from "smol-toml";
import type { CallFact } from "../../policy/call-facts.ts";
import { isDenylistedPath } from "../../policy/secret-paths.ts";
import { expandGlob, segmentHasGlob } from "./bash-glob.ts";
import type { Context } from "./disk-context.ts";
import { lstatEntry } from "./fs-entry.ts";
import { isWithin, realPathOf } from "./real-path.ts";
import { textFileOrNull } from "./text-file.ts";
import { shownPath } from "./tree-walk.ts";
import { pickerFile } from "./upward-files.ts";

/** Past this many manifests the call asks: a workspace that large is not looked through. */
const MAX_MANIFESTS = 256;

/** The tables whose entries may carry `path = "…"` (the Cargo reference; the underscore spellings are still read). */
const DEPENDENCY_TABLES = [
  "dependencies",
  "dev-dependencies",
  "dev_dependencies",
  "build-dependencies",
  "build_dependencies",
];

type Table = Record<string, unknown>;

function isTable(v: unknown): v is Table {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
}

function manifestOf(path: string): Table | null {
  const text = textFileOrNull(path);
  if (text === null) return null;
  try {
    return parse(text);
  } catch {
    return null;
  }
}

/** The directories of a manifest's path dependencies, in every dependency table (per target, inherited). */
function pathDependencies(m: Table): string[] {
  const tables: unknown[] = DEPENDENCY_TABLES.map((k) => m[k]);
  if (isTable(m.target))
    for (const t of Object.values(m.target))
      if (isTable(t)) tables.push(...DEPENDENCY_TABLES.map((k) => t[k]));
  if (isTable(m.workspace)) tables.push(m.workspace.dependencies);
  const out: string[] = [];
  for (const table of tables)
    if (isTable(table))
      for (const dep of Object.values(table))
        if (isTable(dep) && typeof dep.path === "string") out.push(dep.path);
  return out;
}

/** The member directories `[workspace] members` names (globs expanded as cargo's glob crate, widely), or why not known. */
function members(root: string, ws: Table): { dirs: string[] } | { unknown: string } {
  const excluded = strings(ws.exclude).map((e) => resolve(root, e));
  const dirs: string[] = [];
  for (const pattern of strings(ws.members)) {
    const full = resolve(root, pattern);
    if (!full.split("/").some(segmentHasGlob)) {
      dirs.push(full);
      continue;
    }
    if (full.includes("**")) return { unknown: `the member pattern \`${pattern}\` is not expanded here` };
    const e = expandGlob(full, MAX_MANIFESTS, true);
    if ("unknown" in e) return e;
    dirs.push(...e.paths);
  }
  return { dirs: dirs.filter((d) => !excluded.some((x) => isWithin(x, d))) };
}

/** Why cargo reading `path`, named by a manifest in the workspace (`fromWorkspace`) or not, needs a person. */
function manifestWhy(path: string, fromWorkspace: boolean, ctx: Context): string | null {
  const st = lstatEntry(path);
  if (st === undefined) return null;
  const r = realPathOf(path);
  if (!r.ok) return "cannot be resolved";
  if (isDenylistedPath(r.real) && !isDenylistedPath(path))
    return `is a link to \`${shownPath(r.real, ctx.workspace)}\`, a secret`;
  if (!fromWorkspace) return null;
  if (!isWithin(ctx.workspace, r.real)) return `is \`${r.real}\`, out of the workspace`;
  return st.isFile() && st.nlink > 1 ? "is a hard link, whose other name may be a secret" : null;
}

/**
 * The workspace root cargo finds for the package of `manifest`: none when the manifest is one itself, the
 * directory `package.workspace` names, or the nearest manifest above with a `[workspace]` table.
 */
function rootOf(manifest: string, m: Table | null): { path: string; named: boolean } | null {
  if (m === null || isTable(m.workspace)) return null;
  const named = isTable(m.package) ? m.package.workspace : undefined;
  if (typeof named === "string")
    return { path: join(resolve(dirname(manifest), named), "Cargo.toml"), named: true };
  for (let d = dirname(dirname(manifest)); ; d = dirname(d)) {
    const p = join(d, "Cargo.toml");
    if (isTable(manifestOf(p)?.workspace)) return { path: p, named: false };
    if (dirname(d) === d) return null;
  }
}

/**
 * Every manifest cargo loads from `dir` (its own and its workspace root's, which are version files, then
 * members and path dependencies, transitively): one named by a manifest of the workspace asks when it is
 * a link onto a secret, out of the workspace or a hard link; one the person's own manifests above the
 * workspace name, only when it is a secret.
 */
export function cargoWorkspaceFacts(dir: string, shown: string, ctx: Context): CallFact[] {
  const own = pickerFile(dir, ["Cargo.toml"]);
  if (own === null) return [];
  const root = rootOf(own, manifestOf(own));
  // A root `package.workspace` names is named by the manifest; one found above is the disk's (a version file).
  const ownInside = isWithin(ctx.workspace, own);
  const queue: { path: string; check: boolean; fromWorkspace: boolean }[] = [
    { path: own, check: false, fromWorkspace: false },
    ...(root === null ? [] : [{ path: root.path, check: root.named, fromWorkspace: ownInside }]),
  ];
  const seen = new Set<string>();
  const fact = (reason: string): CallFact[] => [{ subject: shown, reason }];
  for (let k = 0; k < queue.length; k++) {
    const { path, check, fromWorkspace } = queue[k] as (typeof queue)[number];
    if (seen.has(path)) continue;
    if (seen.size >= MAX_MANIFESTS)
      return fact(`cargo loads more than ${MAX_MANIFESTS} manifests here, which are not all looked at`);
    seen.add(path);
    const why = check ? manifestWhy(path, fromWorkspace, ctx) : null;
    if (why !== null)
      return fact(
        `\`${shownPath(path, ctx.workspace)}\`, a manifest cargo loads (a workspace member or a path dependency), ${why}: cargo prints its fields and quotes its lines in errors`,
      );
    const m = manifestOf(path);
    if (m === null) continue;
    const r = realPathOf(path);
    const inside = r.ok && isWithin(ctx.workspace, r.real);
    const here = dirname(path);
    const named = isTable(m.workspace) ? members(here, m.workspace) : { dirs: [] };
    if ("unknown" in named) return fact(`cargo loads the workspace's members: ${named.unknown}`);
    for (const d of [...named.dirs, ...pathDependencies(m).map((p) => resolve(here, p))])
      queue.push({ path: join(d, "Cargo.toml"), check: true, fromWorkspace: inside });
  }
  return [];
}
