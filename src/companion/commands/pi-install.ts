// `airlock init`'s Pi step: `pi install <this package>`, after checking that the Node which would run Pi can run it
// at all (Pi needs a newer Node than many machines carry; under an older one it dies on its first import with a
// message that says nothing about Node), and saying exactly what to do when it cannot.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, readFileSync, realpathSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import semver from "semver";
import type { Env } from "../cli/config.ts";
import { PACKAGE_ROOT } from "../cli/invocation.ts";

/** The executable `name` on this PATH, the way a shell finds it (never a checkout's npm-injected `.bin`). */
export function onUserPath(name: string, env: Env): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir || isNpmBinDir(dir)) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * A `node_modules/.bin` folder: npm and npx put the running project's (and its parents') first on PATH, so the
 * agents a checkout has as devDependencies would look installed. They are not the user's.
 */
export function isNpmBinDir(dir: string): boolean {
  return /(^|[\\/])node_modules[\\/]\.bin[\\/]?$/.test(dir);
}

/** Pi's required Node range, from the package.json above its real bin (`engines.node`). */
function piNodeRange(pi: string): string | undefined {
  let dir = dirname(realpathSync(pi));
  for (let i = 0; i < 6; i++) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg)) {
      try {
        const raw: unknown = JSON.parse(readFileSync(pkg, "utf8"));
        const engines = (raw as { engines?: { node?: unknown } }).engines;
        if (typeof engines?.node === "string") return engines.node;
      } catch {
        // not a package.json we can read; look further up
      }
    }
    dir = dirname(dir);
  }
  return undefined;
}

/** The Node a `#!/usr/bin/env node` script runs under with this PATH, and its version. */
function pathNode(env: Env): { path: string; version: string } | undefined {
  const node = onUserPath("node", env);
  if (!node) return undefined;
  const run = spawnSync(node, ["--version"], { env, encoding: "utf8", timeout: 10_000 });
  const version = semver.coerce(run.stdout)?.version;
  return version ? { path: node, version } : undefined;
}

/** Why Pi cannot run here, with the exact next step, or undefined when it can. */
export function piNodeProblem(pi: string, env: Env): string | undefined {
  const range = piNodeRange(pi);
  const node = pathNode(env);
  if (!range || !node || semver.satisfies(node.version, range)) return undefined;
  return (
    `Pi needs Node ${range} (its package.json), but the node on your PATH (${node.path}) is v${node.version}, ` +
    `which cannot run Pi at all. Install Node ${semver.minVersion(range)?.version ?? range} or newer ` +
    `(e.g. "nvm install 22" or your package manager), then run: pi install ${PACKAGE_ROOT}`
  );
}

/** The line of a failed run's output that says what went wrong (an "Error:" line), else its first line. */
function errorLine(output: string): string {
  const lines = output
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.find((l) => /\b\w*Error\b/.test(l)) ?? lines[0] ?? "no output";
}

/** Runs `pi install <this package>`; throws with the exact manual step when it cannot or does not work. */
export function installPiPackage(env: Env, cwd: string): string {
  const pi = onUserPath("pi", env);
  if (!pi) throw new Error(`pi is not on PATH; run: pi install ${PACKAGE_ROOT}`);
  const problem = piNodeProblem(pi, env);
  if (problem) throw new Error(problem);
  const run = spawnSync(pi, ["install", PACKAGE_ROOT], { env, cwd, encoding: "utf8", timeout: 120_000 });
  if (run.status !== 0)
    throw new Error(
      `"pi install ${PACKAGE_ROOT}" failed (${errorLine(`${run.stderr ?? ""}\n${run.stdout ?? ""}`)}); run it yourself to see the whole output`,
    );
  return `package installed (pi install ${PACKAGE_ROOT})`;
}
