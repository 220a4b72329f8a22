// NODE_OPTIONS in the agent's environment (red team, round 14): a `--require`, `--import` or `--loader`
// naming a workspace file (yarn PnP sets `--require ./.pnp.cjs` for every child of `yarn …`) or a relative
// path turns any node process — `npm --version`, `tsc --version` — into running that file, so a unit that
// starts node asks. A module by name (`--import tsx`) or a file outside the workspace is the user's own.
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { CallFact } from "../../policy/call-facts.ts";
import { isWithin } from "./real-path.ts";

/** node's options that load a module before the program (`-r X`, `--require=X`, `--import X`, …). */
const PRELOAD = /^(?:-r|--require|--import|--loader|--experimental-loader)(?:=(.*))?$/;

/** The modules NODE_OPTIONS preloads, as written; null when its quoting is not read here. */
function preloads(options: string): string[] | null {
  // node reads double quotes and backslashes in NODE_OPTIONS; a value using them is not split here.
  if (/["\\]/.test(options))
    return /-r\b|--require|--import|--loader|--experimental-loader/.test(options) ? null : [];
  const words = options.split(/\s+/).filter((w) => w !== "");
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const m = PRELOAD.exec(words[i] as string);
    if (m === null) continue;
    const value = m[1] ?? words[++i];
    if (value !== undefined) out.push(value);
  }
  return out;
}

/** A relative path: where it leads depends on where node runs, so it asks wherever it leads. */
const RELATIVE = /^\.{1,2}(\/|$)/;

/** The file a preload names, resolved from where node runs; null for a module by name (`tsx`, `dotenv/config`). */
function preloadFile(spec: string, dir: string): string | null {
  if (spec.startsWith("file:")) {
    try {
      return fileURLToPath(spec);
    } catch {
      return resolve(dir, spec);
    }
  }
  if (isAbsolute(spec)) return spec;
  return RELATIVE.test(spec) ? resolve(dir, spec) : null;
}

/** Why node run in `dir` would run a workspace file first, or null. */
export function nodePreloadFact(
  env: NodeJS.ProcessEnv,
  dir: string,
  workspace: string,
  subject: string,
): CallFact | null {
  const options = env.NODE_OPTIONS;
  if (options === undefined || options === "") return null;
  const specs = preloads(options);
  if (specs === null)
    return {
      subject,
      reason: "NODE_OPTIONS in the environment preloads a module, quoted in a way not read here",
    };
  for (const spec of specs) {
    const file = preloadFile(spec, dir);
    if (file === null || (!RELATIVE.test(spec) && !isWithin(workspace, file))) continue;
    return {
      subject,
      reason: `NODE_OPTIONS in the environment preloads \`${spec}\`, a file of the project every node process runs first`,
    };
  }
  return null;
}
