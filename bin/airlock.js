#!/usr/bin/env node
// The `airlock` command: runs the compiled companion CLI (built into dist/ by `npm install`). An agent hook, spawned
// for every tool call, goes straight to the one-file fast entry instead of the CLI dispatcher.
import module from "node:module";
import { fileURLToPath } from "node:url";

// Reuses compiled bytecode across the many short hook processes (Node ≥ 22.1; a no-op where unsupported).
module.enableCompileCache?.();

const argv = process.argv.slice(2);
if (argv.length === 2 && argv[0] === "hook" && (argv[1] === "claude-code" || argv[1] === "codex")) {
  const { runFastHook } = await import("../dist/companion/hook-fast.js");
  await runFastHook(argv[1], fileURLToPath(import.meta.url));
} else {
  const { main } = await import("../dist/companion/cli.js");
  process.exitCode = await main(argv);
}
