#!/usr/bin/env node
// Budget check for the dashboard's first view: the gzipped JavaScript a browser must load before the approvals view
// paints and is interactive (the entry chunk and its static imports, from Vite's manifest), against the budget;
// lazy views and the service worker are reported but not counted. Also reported, not budgeted: the first card, i.e.
// the first view plus the validators chunk (zod and the shapes, fetched right after the first render) without which
// no prompt is shown. Exit 1 above the budget.
// Usage: node web/check-size.mjs [distDir=web/dist] [--budget-kb=35] [--json]
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const args = process.argv.slice(2);
const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(args.find((a) => !a.startsWith("--")) ?? join(here, "dist"));
const budgetKb = Number(
  /^--budget-kb=(.+)$/.exec(args.find((a) => a.startsWith("--budget-kb=")) ?? "")?.[1] ?? 35,
);
const asJson = args.includes("--json");

let manifest;
try {
  manifest = JSON.parse(readFileSync(join(dist, ".vite", "manifest.json"), "utf8"));
} catch {
  console.error(`No build at ${dist} (no .vite/manifest.json): run npm run build:web first.`);
  process.exit(2);
}

/** The validators' module (web/src/load-validators.ts imports it as soon as the app has rendered). */
const VALIDATORS = "src/validators.ts";

/** A chunk and every chunk it imports statically, transitively, as file names. */
function closure(key) {
  const seen = new Set();
  const visit = (k) => {
    if (seen.has(k) || !manifest[k]) return;
    seen.add(k);
    for (const next of manifest[k].imports ?? []) visit(next);
  };
  visit(key);
  return [...seen].map((k) => manifest[k].file);
}

function firstView() {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  if (!entry) throw new Error("no entry chunk in the Vite manifest");
  return closure(entry[0]);
}

const gz = (file) => gzipSync(readFileSync(join(dist, file))).length;
const first = firstView().map((file) => ({ file, gzipBytes: gz(file) }));
const firstFiles = new Set(first.map((f) => f.file));
const lazy = Object.values(manifest)
  .map((chunk) => chunk.file)
  .filter((file) => file.endsWith(".js") && !firstFiles.has(file))
  .map((file) => ({ file, gzipBytes: gz(file) }));
const gzipBytes = first.reduce((sum, s) => sum + s.gzipBytes, 0);
const ok = gzipBytes <= budgetKb * 1000;
// A build from before the validators were lazy (zod in the first view) has no such chunk: its first card is its first view.
const validators = closure(VALIDATORS)
  .filter((file) => !firstFiles.has(file))
  .map((file) => ({ file, gzipBytes: gz(file) }));
const firstCardBytes = gzipBytes + validators.reduce((sum, s) => sum + s.gzipBytes, 0);
// kB as Vite reports it (1000 bytes), gzip at the default level a CDN would use.
if (asJson) {
  console.log(
    JSON.stringify({
      gzipBytes,
      budgetBytes: budgetKb * 1000,
      ok,
      files: first,
      firstCard: { gzipBytes: firstCardBytes, validators },
      lazy,
    }),
  );
} else {
  for (const s of first) console.log(`  first view  ${s.file}  ${(s.gzipBytes / 1000).toFixed(2)} kB gzip`);
  for (const s of lazy) console.log(`  lazy        ${s.file}  ${(s.gzipBytes / 1000).toFixed(2)} kB gzip`);
  console.log(
    `first view JavaScript: ${(gzipBytes / 1000).toFixed(2)} kB gzipped (budget ${budgetKb} kB) ${ok ? "OK" : "OVER BUDGET"}`,
  );
  console.log(
    `first card (first view + validators ${validators.map((s) => s.file).join(", ")}): ${(firstCardBytes / 1000).toFixed(2)} kB gzipped`,
  );
}
process.exit(ok ? 0 : 1);
