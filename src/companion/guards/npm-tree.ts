// The package.json files npm reads when it loads the project's tree (`npm ls`, `outdated`, `explain`, …):
// the root's, every workspace member's and every installed package's under node_modules (nested ones
// too). npm quotes a manifest it cannot parse (`EJSONPARSE … while parsing 'machine x login u password
// …'`) and `npm ls --long --json` prints every field of one it can: a committed manifest that is a link
// onto a secret, out of the workspace, or a hard link, is printed (red team, rounds 11 and 12). The root's
// is judged with the version files; this walks the rest, bounded. A link count counts only outside
// node_modules: pnpm and bun hard-link installed files from their stores, and git never makes hard links.
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { isDenylistedPath } from "../../policy/secret-paths.ts";
import { lstatEntry } from "./fs-entry.ts";
import { isWithin, realPathOf } from "./real-path.ts";
import { shownPath } from "./tree-walk.ts";

/** Package directories looked at, at most: a bigger tree asks rather than be half checked. */
const MAX_PACKAGES = 20_000;
/** How deep a workspace pattern's directory is searched for members (`packages/*`, `apps/**`). */
const MEMBER_DEPTH = 3;

/** The nearest directory at or above `dir` with a package.json: where npm takes the project to be. */
function projectRoot(dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    if (lstatEntry(join(d, "package.json")) !== undefined) return d;
    if (dirname(d) === d) return null;
  }
}

/** The root manifest's workspace patterns (`workspaces: [...]` or `{ packages: [...] }`). */
function workspacePatterns(root: string): string[] {
  let text: string;
  try {
    const st = lstatSync(join(root, "package.json"));
    if (!st.isFile() || st.size > 1024 * 1024) return [];
    text = readFileSync(join(root, "package.json"), "utf8");
  } catch {
    return [];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const ws = (parsed as { workspaces?: unknown }).workspaces;
  const list = Array.isArray(ws) ? ws : (ws as { packages?: unknown } | undefined)?.packages;
  return Array.isArray(list) ? list.filter((p): p is string => typeof p === "string") : [];
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Why one package.json npm reads may print what it should not, or null. `installed`: under node_modules,
 * where pnpm and bun hard-link every file from their stores, so a link count says nothing there.
 */
function manifestWhy(p: string, workspace: string, installed: boolean): string | null {
  const st = lstatEntry(p);
  if (st === undefined) return null;
  const r = realPathOf(p);
  if (!r.ok) return "cannot be resolved";
  if (isDenylistedPath(r.real)) return `is a link to \`${shownPath(r.real, workspace)}\`, a secret`;
  if (st.isSymbolicLink() && isWithin(workspace, p) && !isWithin(workspace, r.real))
    return `leads out of the workspace through a symlink, to \`${r.real}\``;
  if (!installed && st.isFile() && st.nlink > 1) return "is a hard link, whose other name may be a secret";
  return null;
}

/**
 * Why loading the npm project's tree from `dir` may print a file it should not, or null: the first
 * workspace member's or installed package's package.json that links onto a secret, out of the workspace,
 * or is a hard link; or a tree too big to check.
 */
export function npmTreeFact(dir: string, workspace: string, subject: string): CallFact | null {
  const root = projectRoot(dir);
  if (root === null) return null;
  const manifests: { path: string; installed: boolean }[] = [];
  let budget = MAX_PACKAGES;
  // Workspace members: the pattern's fixed leading directories, searched a few levels down.
  for (const pattern of workspacePatterns(root)) {
    const fixed = pattern.split("/").filter((s) => s !== "" && s !== ".");
    const cut = fixed.findIndex((s) => /[*?[{!]/.test(s));
    const start = join(root, ...(cut < 0 ? fixed : fixed.slice(0, cut)));
    const visit = (d: string, depth: number) => {
      if (--budget < 0) return;
      manifests.push({ path: join(d, "package.json"), installed: false });
      if (depth >= MEMBER_DEPTH) return;
      for (const name of entries(d))
        if (name !== "node_modules" && !name.startsWith(".") && lstatEntry(join(d, name))?.isDirectory())
          visit(join(d, name), depth + 1);
    };
    visit(start, 0);
  }
  // Installed packages, scoped ones and nested node_modules included.
  const modules = (d: string) => {
    for (const name of entries(d)) {
      if (name.startsWith(".")) continue;
      const at = join(d, name);
      const packages = name.startsWith("@") ? entries(at).map((n) => join(at, n)) : [at];
      for (const pkg of packages) {
        if (--budget < 0) return;
        manifests.push({ path: join(pkg, "package.json"), installed: true });
        if (lstatEntry(join(pkg, "node_modules"))?.isDirectory()) modules(join(pkg, "node_modules"));
      }
    }
  };
  modules(join(root, "node_modules"));
  if (budget < 0)
    return {
      subject,
      reason: `the npm project holds more than ${MAX_PACKAGES} packages, too many to check each package.json npm reads and may print`,
    };
  for (const m of manifests) {
    const why = manifestWhy(m.path, workspace, m.installed);
    if (why !== null)
      return {
        subject,
        reason: `\`${shownPath(m.path, workspace)}\` ${why}; npm reads every package.json of the tree and prints one it cannot parse`,
      };
  }
  return null;
}
