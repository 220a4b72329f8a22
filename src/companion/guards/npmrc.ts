// npm (and npx) read the project's `.npmrc` on every command, `npm ls` and `npm --version` included, and
// some of its keys change where npm writes or what it runs: `logs-dir=~/.bashrc.d` makes `npm ls` write
// its debug log (which quotes the command line) into a directory a shell sources (red team, round 10);
// `cache`, `prefix`, `userconfig`, `globalconfig`, `script-shell`, `node-options`, `shell`, `editor`,
// `init-module` likewise. A key of an `.npmrc` between where npm runs and the workspace's root that is
// not known to be harmless (registry choice, install style, output) makes the npm unit ask. The user's
// own ~/.npmrc and files above the workspace are the user's, not the project's.
import { readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { isWithin } from "./real-path.ts";

/** Keys that choose a registry, an install style or output: none writes elsewhere or runs anything. */
const HARMLESS = new Set([
  ...["registry", "save-exact", "save-prefix", "save", "engine-strict", "fund", "audit", "package-lock"],
  ...["legacy-peer-deps", "strict-peer-deps", "auto-install-peers", "shamefully-hoist", "loglevel"],
  ...["progress", "color", "update-notifier", "lockfile-version", "prefer-offline", "prefer-online"],
  ...["ignore-scripts", "omit", "include", "install-strategy", "install-links", "node-linker"],
  ...["public-hoist-pattern", "hoist-pattern", "link-workspace-packages", "prefer-workspace-packages"],
  ...["strict-ssl", "always-auth", "access", "provenance", "tag-version-prefix", "git-tag-version"],
  ...["fetch-retries", "fetch-timeout", "fetch-retry-mintimeout", "fetch-retry-maxtimeout", "maxsockets"],
  ...["unicode", "resolution-mode", "dedupe-peer-dependents", "use-node-version", "engine-strict"],
]);
const MAX_BYTES = 256 * 1024;

/** Whether a key only picks a registry, its credentials, or something else in HARMLESS. */
function harmless(key: string): boolean {
  // Per-registry settings (`//host/:_authToken`) and scoped registries (`@scope:registry`).
  if (key.startsWith("//") || /^@[^:]+:registry$/.test(key)) return true;
  return HARMLESS.has(key);
}

/** The first key of an .npmrc text not known to be harmless, or null. */
export function npmrcKey(text: string): string | null {
  for (const raw of text.slice(0, MAX_BYTES).split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const eq = line.indexOf("=");
    const key = (eq < 0 ? line : line.slice(0, eq)).trim().toLowerCase();
    if (!harmless(key)) return key;
  }
  return null;
}

/** Why npm run in `dir` reads a project .npmrc that changes where it writes or what it runs; null when none. */
export function npmrcFact(dir: string, workspace: string, shown: string): CallFact | null {
  for (let d = dir; isWithin(workspace, d); d = dirname(d)) {
    const file = join(d, ".npmrc");
    if (statSync(file, { throwIfNoEntry: false }) !== undefined) {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch {
        return { subject: shown, reason: `npm reads \`${file}\`, which cannot be read here` };
      }
      const key = npmrcKey(text);
      if (key !== null)
        return {
          subject: shown,
          reason: `npm reads the project's \`.npmrc\`, which sets \`${key}\`: it may change where npm writes (its logs, its cache) or what it runs`,
        };
    }
    if (d === workspace || dirname(d) === d) break;
  }
  return null;
}
