#!/usr/bin/env node
// The `airlock` command: runs the compiled companion CLI (built into dist/ by `npm install`).
import { main } from "../dist/companion/cli.js";

process.exitCode = await main(process.argv.slice(2));
