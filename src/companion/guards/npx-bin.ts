// Which program `npx NAME` runs, found as npm's exec does (npm 9/10, libnpmexec): the bin NAME of the
// project's own package.json, else `node_modules/.bin/NAME` in the project's directory or any directory
// above it, else the global bin directory; when none has it, npx (which assumes --yes when it has no
// terminal) downloads the registry package called NAME and runs its bin (red team, round 8: `npx tsc
// --version` in a project without TypeScript runs whatever the registry's `tsc` is). A bin the repository
// itself tracks is the repository's code, not an install (round 14: a committed node_modules ran on
// `npx tsc --version`).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { lstatEntry } from "./fs-entry.ts";
import { trackedFile } from "./git-tracked.ts";
import { isWithin, realPathOf } from "./real-path.ts";
import { shownPath } from "./tree-walk.ts";

function exists(path: string): boolean {
  return lstatEntry(path) !== undefined;
}

/** npm's local prefix: the nearest directory at or above `dir` holding package.json or node_modules. */
function localPrefix(dir: string): string {
  for (let d = dir; ; d = dirname(d)) {
    if (exists(join(d, "package.json")) || exists(join(d, "node_modules"))) return d;
    if (dirname(d) === d) return dir;
  }
}

/** The project's own package.json names a bin NAME: npx runs the project's file. */
function ownBin(prefix: string, name: string): string | null {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(join(prefix, "package.json"), "utf8"));
  } catch {
    return null;
  }
  if (typeof manifest !== "object" || manifest === null) return null;
  const m = manifest as { name?: unknown; bin?: unknown };
  if (typeof m.bin === "string") return m.name === name || String(m.name).endsWith(`/${name}`) ? m.bin : null;
  if (typeof m.bin === "object" && m.bin !== null && Object.hasOwn(m.bin, name)) {
    const v = (m.bin as Record<string, unknown>)[name];
    return typeof v === "string" ? v : "?";
  }
  return null;
}

/** The global bin directories npm may use: beside the running node, and Debian's /usr/local prefix. */
function globalBins(): string[] {
  return [dirname(process.execPath), "/usr/local/bin"];
}

/** The fact that makes `npx NAME` in `dir` need a person, or null when it runs an installed bin. */
export function npxFact(dir: string, name: string, workspace: string, subject: string): CallFact | null {
  const prefix = localPrefix(dir);
  const own = ownBin(prefix, name);
  if (own !== null)
    return {
      subject,
      reason: `the project's package.json names a bin \`${name}\` (\`${own}\`): npx runs the project's own file`,
    };
  for (let d = prefix; ; d = dirname(d)) {
    const bin = join(d, "node_modules", ".bin", name);
    if (exists(bin)) {
      const r = realPathOf(bin);
      if (!r.ok)
        return { subject, reason: `\`${shownPath(bin, workspace)}\` cannot be resolved (${r.reason})` };
      // A bin in the workspace is a link into its node_modules (npm links each); one that leads elsewhere
      // is a program out of the workspace, put there by whoever made the link.
      if (isWithin(workspace, bin) && !isWithin(workspace, r.real))
        return {
          subject,
          reason: `\`${shownPath(bin, workspace)}\` leads out of the workspace, to \`${r.real}\`: npx runs that`,
        };
      const tracked = trackedFile(d, [bin, r.real]);
      return tracked === null
        ? null
        : {
            subject,
            reason: `the repository tracks \`${tracked}\`: npx runs the repository's own file, not an installed package`,
          };
    }
    if (dirname(d) === d) break;
  }
  if (globalBins().some((g) => exists(join(g, name)))) return null;
  return {
    subject,
    reason: `npx finds no \`${name}\` installed (no node_modules/.bin/${name} here or above, nor a global one): it would download the registry package \`${name}\` and run it`,
  };
}
