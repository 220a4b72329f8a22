// Whether a write lands on a path a user configuration file names (user-config-scan.ts's class scan), as
// the disk resolves both now. The over-ask boundary: a named file counts, and so does everything below a
// named directory strictly inside the workspace (`XDG_CONFIG_HOME=~/proj/cfg`, `PATH=~/proj/bin`), but
// the workspace itself or a directory above it does not (`export PROJ=~/code`, `alias app='cd ~/code/app'`
// name where the person works, not a file any program runs), nor a directory only ever `cd`'d into.
import { posix } from "node:path";
import type { Context } from "./disk-context.ts";
import { realWorkspace } from "./disk-context.ts";
import { realPathOf } from "./real-path.ts";
import type { Scan, ScannedPath } from "./user-config-scan.ts";

/** The scan's paths by every name they have at this decision: as written, and through links (which move). */
const perDecision = new WeakMap<Context, Map<string, ScannedPath>>();

function resolvedNames(scan: Scan, ctx: Context): Map<string, ScannedPath> {
  const memo = perDecision.get(ctx);
  if (memo !== undefined) return memo;
  const names = new Map(scan.named);
  for (const named of scan.named.values()) {
    const r = realPathOf(named.path);
    if (r.ok && r.real !== named.path && !names.has(r.real)) names.set(r.real, named);
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
