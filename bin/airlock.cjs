#!/usr/bin/env node
// The `airlock` command. An agent hook, spawned for every tool call, goes straight to the one-file fast entry
// (CommonJS, built by scripts/bundle-hook.mjs); every other command runs the compiled CLI (dist/, built by
// `npm install`).
const argv = process.argv.slice(2);
const FAST_HOOKS = ["claude-code", "codex", "gemini", "opencode", "copilot"];
if (argv.length === 2 && argv[0] === "hook" && FAST_HOOKS.includes(argv[1])) {
  require("../dist/companion/hooks/fast.cjs").runFastHook(argv[1], __filename);
} else {
  // Node's module compile cache pays off for the CLI's larger modules (measured: it costs the one-file hook more
  // than it saves, so the hook turns it on only for its slow path).
  require("node:module").enableCompileCache?.();
  import("../dist/companion/cli.js").then(async ({ main }) => {
    process.exitCode = await main(argv);
  });
}
