// Whether a write lands on a path a user configuration file names (user-config-scan.ts's class scan), as
// the disk resolves both now. The over-ask boundary: a named file counts, and so does everything below a
// named directory strictly inside the workspace (`XDG_CONFIG_HOME=~/proj/cfg`, `PATH=~/proj/bin`), but
// the workspace itself or a directory above it does not (`export PROJ=~/code`, `alias app='cd ~/code/app'`
// name where the person works, not a file any program runs), nor a directory only ever `cd`'d into.
import { realpathSync } from "node:fs";
import { posix } from "node:path";
import type { Context } from "./disk-context.ts";
import { realWorkspace } from "./disk-context.ts";
import { lstatEntry } from "./fs-entry.ts";
import { realPathOf } from "./real-path.ts";
import type { Scan, ScannedPath } from "./user-config-scan.ts";

/** The scan's paths by every name they have at this decision: as written, and through links (which move). */
const perDecision = new WeakMap<Context, Map<string, ScannedPath>>();

/**
 * Where each path leads now, the real paths of directories shared: a scan names hundreds of paths, mostly in
 * a few directories and mostly missing, and realPathOf's walk of each missing one costs ~0.6 ms apiece
 * (measured: 400 ms for 650 paths). A missing name is its parent's real path and the name (an lstat that
 * throws nothing); what is there the kernel resolves (realpath), a dangling link realPathOf.
 */
function resolver(): (path: string) => string {
  const known = new Map<string, string>();
  const realOf = (path: string): string => {
    const memo = known.get(path);
    if (memo !== undefined) return memo;
    let real = path;
    if (!there(path)) {
      if (path !== "/") real = posix.join(realOf(posix.dirname(path)), posix.basename(path));
    } else
      try {
        real = realpathSync.native(path);
      } catch {
        const r = realPathOf(path);
        if (r.ok) real = r.real;
      }
    known.set(path, real);
    return real;
  };
  return realOf;
}

/** Whether anything (a dangling link too) has the name; a file where a directory is named: nothing. */
function there(path: string): boolean {
  try {
    return lstatEntry(path) !== undefined;
  } catch {
    return false;
  }
}

function resolvedNames(scan: Scan, ctx: Context): Map<string, ScannedPath> {
  const memo = perDecision.get(ctx);
  if (memo !== undefined) return memo;
  const names = new Map(scan.named);
  const realOf = resolver();
  for (const named of scan.named.values()) {
    const real = realOf(named.path);
    if (real !== named.path && !names.has(real)) names.set(real, named);
  }
  perDecision.set(ctx, names);
  return names;
}

function strictlyInside(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => path.startsWith(`${root}/`));
}

/** The named path `path` is, is below (a directory strictly inside the workspace), or holds (it moves it). */
function hitOf(
  names: Map<string, ScannedPath>,
  path: string,
  workspaces: readonly string[],
): ScannedPath | null {
  const self = names.get(path);
  if (self !== undefined) return self;
  for (let up = posix.dirname(path); up !== "/" && up !== "."; up = posix.dirname(up)) {
    const named = names.get(up);
    if (named !== undefined && !named.cd && strictlyInside(up, workspaces)) return named;
  }
  for (const [name, named] of names) if (!named.cd && name.startsWith(`${path}/`)) return named;
  return null;
}

/** What the write hits: a named path, the bound the scan stopped at (nothing is known past it), or null. */
export function scannedWriteHit(
  scan: Scan,
  ctx: Context,
  real: string,
  lexical: string,
): ScannedPath | { overflow: string } | null {
  if (scan.overflow !== null) return { overflow: scan.overflow };
  const names = resolvedNames(scan, ctx);
  const workspaces = [ctx.workspace, realWorkspace(ctx)];
  return hitOf(names, real, workspaces) ?? hitOf(names, lexical, workspaces);
}
