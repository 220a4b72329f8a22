// Whether go finds everything a go.mod requires in the module cache, so loading the module graph and building
// read the disk and not the network (fix15e, issue 20). From go.dev/ref/mod#module-cache: the cache is
// GOMODCACHE, by default GOPATH's first entry's pkg/mod ($HOME/go/pkg/mod); a module's go.mod is
// `cache/download/<path>/@v/<version>.mod` and its files `<path>@<version>/` (or the .zip beside the .mod),
// with each capital letter written `!` and its lower case. With a `go 1.17` or later line the graph is
// pruned: go.mod lists every module the build needs, and go reads their go.mod files only. (No go on the
// machine this was written on: the reading is the reference's.)
import { join } from "node:path";
import { statEntry } from "./fs-entry.ts";

/** One `require` of go.mod: the module, its version, and whether go marked it `// indirect`. */
interface Requirement {
  path: string;
  version: string;
  indirect: boolean;
}

/** The requirements of a go.mod, in the one-line and the block form. */
function requirements(goMod: string): Requirement[] {
  const out: Requirement[] = [];
  const line = /^\s*(?:require\s+)?(\S+)\s+(v\S+)\s*(\/\/\s*indirect\b)?/;
  let block = false;
  for (const raw of goMod.split("\n")) {
    if (/^\s*require\s*\(/.test(raw)) block = true;
    else if (block && /^\s*\)/.test(raw)) block = false;
    else if (block || /^\s*require\s/.test(raw)) {
      const m = line.exec(raw);
      if (m !== null)
        out.push({ path: m[1] as string, version: m[2] as string, indirect: m[3] !== undefined });
    }
  }
  return out;
}

/** A module path or version as the cache spells it: `!` and the lower case for each capital. */
function escaped(text: string): string {
  return text.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/** The module cache of the agent's environment; null when it cannot be named. */
function moduleCache(env: NodeJS.ProcessEnv): string | null {
  if (env.GOMODCACHE) return env.GOMODCACHE;
  const gopath = (env.GOPATH ?? "").split(":")[0] || (env.HOME ? join(env.HOME, "go") : "");
  return gopath.startsWith("/") ? join(gopath, "pkg", "mod") : null;
}

const exists = (path: string) => statEntry(path) !== undefined;

/**
 * Every module go.mod requires has its go.mod in the cache, and every one the main module imports directly
 * (not `// indirect`) its files too. A module only an indirect requirement provides may still be downloaded
 * on a first import of it (its go.mod cached by an earlier build that did not need its files).
 */
export function requiredModulesCached(goMod: string, env: NodeJS.ProcessEnv): boolean {
  const cache = moduleCache(env);
  const go = /^\s*go\s+1\.(\d+)/m.exec(goMod);
  if (cache === null || go === null || Number(go[1]) < 17) return false;
  return requirements(goMod).every((r) => {
    const at = join(cache, "cache", "download", escaped(r.path), "@v", escaped(r.version));
    if (!exists(`${at}.mod`)) return false;
    return (
      r.indirect || exists(`${at}.zip`) || exists(join(cache, `${escaped(r.path)}@${escaped(r.version)}`))
    );
  });
}
