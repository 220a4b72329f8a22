#!/usr/bin/env node
// Checks the shape of src/'s imports: no cycle among files (static, type-only and dynamic imports alike: a cycle
// through a lazy import is still two files that each need the other) and no import from a lower layer to a higher
// one (policy ← protocol ← edge / companion / web). Imports are read by TypeScript's own pre-processor.
// Usage: node scripts/import-graph.mjs [folder under src/, default all of src]. Exit 0 clean, 1 findings.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const scope = join(root, "src", process.argv[2] ?? "");
/** What each top-level folder of src/ may import besides itself; a folder not listed may import anything. */
const MAY_IMPORT = {
  policy: [],
  protocol: ["policy"],
  edge: ["policy", "protocol"],
  companion: ["policy", "protocol"],
};

const files = readdirSync(scope, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts"))
  .map((e) => join(e.parentPath, e.name));
const graph = new Map();
const findings = [];
for (const file of files) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const targets = importedFiles
    .map((i) => i.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => resolve(dirname(file), name))
    .filter((target) => existsSync(target));
  graph.set(file, targets);
  const from = relative(join(root, "src"), file).split("/")[0];
  for (const target of targets) {
    const to = relative(join(root, "src"), target).split("/")[0];
    if (to !== from && MAY_IMPORT[from] && !MAY_IMPORT[from].includes(to))
      findings.push(`layer: ${relative(root, file)} imports ${relative(root, target)}`);
  }
}
// Depth-first search; a back edge to a file on the current path closes a cycle.
const state = new Map();
const path = [];
function visit(file) {
  state.set(file, "open");
  path.push(file);
  for (const next of graph.get(file) ?? []) {
    if (!graph.has(next)) continue;
    if (state.get(next) === "open") {
      const cycle = path.slice(path.indexOf(next)).concat(next);
      findings.push(`cycle: ${cycle.map((f) => relative(root, f)).join(" → ")}`);
    } else if (!state.has(next)) visit(next);
  }
  path.pop();
  state.set(file, "done");
}
for (const file of files) if (!state.has(file)) visit(file);
for (const finding of findings) console.log(finding);
console.log(`${files.length} files, ${findings.length} findings`);
process.exitCode = findings.length ? 1 : 0;
