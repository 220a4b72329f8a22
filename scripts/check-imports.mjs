// The house's import rules, read from the TypeScript sources of src/ and web/src/ (type-only and dynamic imports
// count: they tie the files' meaning together too): no import from a lower layer to a higher one (policy ←
// protocol, domain ← edge, companion, web; inside the edge, only app.ts mounts routes/), and no import cycle
// anywhere in them. Exit 1 with each breach (npm run lint runs it).
// Usage: node scripts/check-imports.mjs [root=the repository]
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(
  process.argv.slice(2).find((a) => !a.startsWith("--")) ?? join(import.meta.dirname, ".."),
);
/** What each layer may import besides itself. */
const ALLOWED = {
  policy: [],
  protocol: ["policy"],
  domain: ["policy"],
  edge: ["policy", "protocol", "domain"],
  companion: ["policy", "protocol"],
  web: ["policy", "protocol"],
};
const layerOf = (file) => (file.startsWith("web/") ? "web" : file.split("/")[1]);
const files = [...walk("src"), ...walk("web/src")];
const known = new Set(files);
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const breaches = [];
for (const [from, targets] of graph)
  for (const to of targets)
    if (layerOf(from) !== layerOf(to) && !ALLOWED[layerOf(from)]?.includes(layerOf(to)))
      breaches.push(`layer: ${from} (${layerOf(from)}) imports ${to} (${layerOf(to)})`);
    else if (
      to.startsWith("src/edge/routes/") &&
      !from.startsWith("src/edge/routes/") &&
      from !== "src/edge/app.ts"
    )
      breaches.push(`layer: ${from} imports the route module ${to} (only src/edge/app.ts mounts routes)`);
for (const cycle of cycles(graph)) breaches.push(`cycle: ${cycle.join(" → ")}`);
for (const b of breaches) console.log(b);
console.log(
  `${files.length} files, ${breaches.length === 0 ? "no cycles, no upward imports" : `${breaches.length} problems`}`,
);
process.exit(breaches.length === 0 ? 0 : 1);

function walk(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

function importsOf(file) {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), "utf8"), true, true);
  return importedFiles
    .filter((i) => i.fileName.startsWith("."))
    .map((i) => relative(ROOT, resolve(ROOT, dirname(file), i.fileName)))
    .map((f) => [f, f.replace(/\.js$/, ".ts"), `${f}.ts`, `${f}.tsx`].find((c) => known.has(c)))
    .filter((f) => f !== undefined);
}

/** Tarjan's strongly connected components of more than one file (or a file importing itself). */
function cycles(g) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const found = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc = [];
    let w;
    do {
      w = stack.pop();
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1 || g.get(v)?.includes(v)) found.push(scc.sort());
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return found;
}
