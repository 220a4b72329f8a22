// Builds dist/ for tests that spawn the `airlock` binary, and only when a source file is newer than its
// output: test files run in parallel, and rewriting dist/ under a running binary makes it load half-written
// modules.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "./airlock-env.ts";

const SOURCES = ["src/companion", "src/policy", "src/protocol"];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

function distIsCurrent(): boolean {
  for (const source of SOURCES.flatMap((dir) => tsFiles(join(ROOT, dir)))) {
    const output = join(ROOT, "dist", relative(join(ROOT, "src"), source).replace(/\.ts$/, ".js"));
    if (!existsSync(output) || statSync(output).mtimeMs < statSync(source).mtimeMs) return false;
  }
  return true;
}

export function buildNode(): void {
  if (distIsCurrent()) return;
  const result = spawnSync("npm", ["run", "-s", "build:node"], { cwd: ROOT, encoding: "utf8" });
  // Another engineer's file mid-edit can make tsc report errors while still emitting; only errors in the
  // files these tests run are fatal.
  const output = `${result.stdout}\n${result.stderr}`;
  const mine = /src\/companion\/(adapters\/(mcp|pi)|guards|commands\/mcp|client|cli)/.test(output);
  if (!existsSync(join(ROOT, "dist/companion/cli.js")) || (result.status !== 0 && mine)) {
    throw new Error(`build:node failed for the files under test:\n${output}`);
  }
}
