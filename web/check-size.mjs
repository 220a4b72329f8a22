#!/usr/bin/env node
// Budget check for the dashboard bundle: sums the gzipped size of every JavaScript file a build emitted and fails
// (exit 1) above the budget. Usage: node web/check-size.mjs [distDir=web/dist] [--budget-kb=60] [--json]
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const args = process.argv.slice(2);
const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(args.find((a) => !a.startsWith("--")) ?? join(here, "dist"));
const budgetKb = Number(
  /^--budget-kb=(.+)$/.exec(args.find((a) => a.startsWith("--budget-kb=")) ?? "")?.[1] ?? 60,
);
const asJson = args.includes("--json");

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

let files;
try {
  files = walk(dist).filter((f) => /\.m?js$/.test(f));
} catch {
  console.error(`No build at ${dist}: run npm run build:web first.`);
  process.exit(2);
}
if (!files.length) {
  console.error(`No JavaScript in ${dist}.`);
  process.exit(2);
}
// kB as Vite reports it (1000 bytes), gzip at the default level a CDN would use.
const sizes = files.map((f) => ({ file: relative(dist, f), gzipBytes: gzipSync(readFileSync(f)).length }));
const gzipBytes = sizes.reduce((sum, s) => sum + s.gzipBytes, 0);
const ok = gzipBytes <= budgetKb * 1000;
if (asJson) {
  console.log(JSON.stringify({ gzipBytes, budgetBytes: budgetKb * 1000, ok, files: sizes }));
} else {
  for (const s of sizes) console.log(`  ${s.file}  ${(s.gzipBytes / 1000).toFixed(2)} kB gzip`);
  console.log(
    `dashboard JavaScript: ${(gzipBytes / 1000).toFixed(2)} kB gzipped (budget ${budgetKb} kB) ${ok ? "OK" : "OVER BUDGET"}`,
  );
}
process.exit(ok ? 0 : 1);
