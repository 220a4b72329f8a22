// Builds dist/ once per test file so spawned `airlock` binaries run the current source.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./airlock-env.ts";

export function buildNode(): void {
  const result = spawnSync("npm", ["run", "-s", "build:node"], { cwd: ROOT, encoding: "utf8" });
  // Another engineer's file mid-edit can make tsc report errors while still emitting; the
  // companion entry point existing is what the spawned binaries need.
  const output = `${result.stdout}\n${result.stderr}`;
  const mine = /src\/companion\/(adapters\/(mcp|pi)|guards|commands\/mcp|client|cli)/.test(output);
  if (!existsSync(join(ROOT, "dist/companion/cli.js")) || (result.status !== 0 && mine)) {
    throw new Error(`build:node produced no dist/companion/cli.js:\n${result.stdout}\n${result.stderr}`);
  }
}
