// The whitelists a ripgrep-style walk may meet outside the tree it walks: a `!pattern` in an ignore
// file of a directory above the root (.ignore, .rgignore, .gitignore), in the repository's
// info/exclude, or in git's global excludes file overrides rg's hidden-file filter for what it names
// (red team, round 8: `!.env` in a project's .ignore made `rg -n ghp_` read .env and descend into .git).
// Only the negations are kept: they can only widen what the decision walks, so a rule here that rg
// would not apply never hides a file the program reads.

import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { type IgnoreRule, ignoreRules } from "./ignore-rules.ts";
import { textFileOrNull } from "./text-file.ts";

const NAMES = [".gitignore", ".ignore", ".rgignore"];

/** The whitelisting rules of an ignore file's text (as ignore-rules.ts trusts them), or null when none. */
export function negations(body: string): IgnoreRule[] | null {
  const rules = ignoreRules(body).filter((r) => r.whitelist);
  return rules.length > 0 ? rules : null;
}

/** git's global excludes file: core.excludesFile from ~/.gitconfig, else $XDG_CONFIG_HOME/git/ignore. */
function globalExcludes(): string[] {
  const home = homedir();
  const out: string[] = [];
  const xdg = process.env.XDG_CONFIG_HOME || join(home, ".config");
  out.push(join(xdg, "git", "ignore"));
  for (const config of [join(home, ".gitconfig"), join(xdg, "git", "config")]) {
    const body = textFileOrNull(config);
    const m = body === null ? null : /^\s*excludesfile\s*=\s*"?([^"\n]+?)"?\s*$/im.exec(body);
    if (m?.[1]) out.push(m[1].startsWith("~/") ? join(home, m[1].slice(2)) : resolve(home, m[1]));
  }
  return out;
}

/**
 * Whitelists from above `root` (a real path): one matcher per file that has a negation, outermost
 * first, each with the directory its patterns are relative to.
 */
export function whitelistsAbove(
  root: string,
  gitDir: string | null,
): { base: string; rules: IgnoreRule[] }[] {
  const found: { base: string; rules: IgnoreRule[] }[] = [];
  const add = (base: string, path: string) => {
    const body = textFileOrNull(path);
    const rules = body === null ? null : negations(body);
    if (rules !== null) found.push({ base, rules });
  };
  const dirs: string[] = [];
  for (let d = dirname(root); ; d = dirname(d)) {
    dirs.push(d);
    if (dirname(d) === d) break;
  }
  for (const d of dirs.reverse()) for (const n of NAMES) add(d, join(d, n));
  // Global and per-repository excludes are relative to the work tree: `/` stands for any ancestor.
  const top = gitDir === null ? "/" : dirname(gitDir);
  for (const g of globalExcludes()) add(top, g);
  if (gitDir !== null) add(top, join(gitDir, "info", "exclude"));
  return found;
}
