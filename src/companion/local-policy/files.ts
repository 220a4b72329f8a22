// Finding and reading the policy layer files on disk for a working directory, with project
// files marked trusted only when their exact content was trusted (`airlock trust`).
import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { PolicySource, SourceLayer } from "../../policy/index.ts";
import { airlockHome, type Env } from "../cli/config.ts";
import { isTrusted } from "./trust.ts";

export const POLICY_FILE_NAMES = ["permissions.yaml", "permissions.yml", "permissions.json"] as const;

export interface LayerFile {
  layer: SourceLayer;
  path: string;
}

export function homeDir(env: Env = process.env): string {
  return env.HOME?.trim() || homedir();
}

/** Nearest ancestor of cwd (inclusive) containing `.git`, else cwd itself. */
export function findRepoRoot(cwd: string): string {
  const start = resolve(cwd);
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const up = dirname(dir);
    if (up === dir) return start;
    dir = up;
  }
}

function present(dir: string): string[] {
  return POLICY_FILE_NAMES.map((n) => join(dir, n)).filter((p) => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  });
}

/**
 * Layer files that exist, lowest precedence first: agent defaults (~/.agents), the user's
 * (pi.hitl's ~/.pi/agent, then ~/.airlock or $AIRLOCK_HOME), the project's (<repo>/.pi, then
 * <repo>/.airlock). The account layer comes from the edge, not from disk.
 */
export function discoverPolicyFiles(cwd: string, env: Env = process.env): LayerFile[] {
  const home = homeDir(env);
  const repo = findRepoRoot(cwd);
  const dirs: { layer: SourceLayer; dir: string }[] = [
    { layer: "agent", dir: join(home, ".agents") },
    { layer: "user", dir: join(home, ".pi", "agent") },
    { layer: "user", dir: airlockHome(env) },
    { layer: "project", dir: join(repo, ".pi") },
    { layer: "project", dir: join(repo, ".airlock") },
  ];
  const seen = new Set<string>();
  const out: LayerFile[] = [];
  for (const { layer, dir } of dirs) {
    for (const path of present(dir)) {
      if (seen.has(path)) continue;
      seen.add(path);
      out.push({ layer, path });
    }
  }
  return out;
}

/** Project config files of a directory's repository, whether or not they exist. */
export function projectPolicyPaths(dir: string): string[] {
  const repo = findRepoRoot(dir);
  return [join(repo, ".pi"), join(repo, ".airlock")].flatMap((d) => POLICY_FILE_NAMES.map((n) => join(d, n)));
}

export function readLayerFiles(files: readonly LayerFile[], env: Env = process.env): PolicySource[] {
  return files.map((f) => {
    const text = readFileSync(f.path, "utf8");
    const source: PolicySource = { layer: f.layer, path: f.path, text };
    if (f.layer === "project") source.trusted = isTrusted(f.path, text, env);
    return source;
  });
}

/** Every layer source for cwd, read from disk; throws if a present file cannot be read. */
export function loadPolicySources(cwd: string, env: Env = process.env): PolicySource[] {
  return readLayerFiles(discoverPolicyFiles(cwd, env), env);
}
