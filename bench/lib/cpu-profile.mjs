// A CPU profile of the local Worker over its devtools port (wrangler dev --inspector-port, set through
// AIRLOCK_DEV_INSPECTOR_PORT in scripts/dev.mjs), and its self/total time by function and by source file.
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import WebSocket from "ws";
import { ROOT } from "../../test/e2e/support/edge.ts";

/** A devtools session on the Worker (wrangler's inspector proxy lists it at /json). */
export async function inspector(inspectorPort) {
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`no inspector target: ${JSON.stringify(targets)}`);
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let id = 0;
  const waiting = new Map();
  ws.on("message", (data) => {
    const msg = JSON.parse(data.toString());
    if (msg.id !== undefined && waiting.has(msg.id)) {
      waiting.get(msg.id)(msg);
      waiting.delete(msg.id);
    }
  });
  return {
    send(method, params = {}) {
      const n = ++id;
      ws.send(JSON.stringify({ id: n, method, params }));
      return new Promise((resolve) => waiting.set(n, resolve));
    },
    close: () => ws.close(),
  };
}

/** Maps a bundle position to its source (wrangler dev writes the bundle and its map under .wrangler/tmp). */
export async function sourceMapper(scratch) {
  const tmp = join(ROOT, ".wrangler", "tmp");
  const dirs = existsSync(tmp) ? readdirSync(tmp).filter((d) => d.startsWith("dev-")) : [];
  // The test entry's bundle (worker-entry.js) or the Worker's own (index.js).
  const map = dirs
    .flatMap((d) => ["worker-entry.js.map", "index.js.map"].map((f) => join(tmp, d, f)))
    .find((f) => existsSync(f));
  if (!map) return () => undefined;
  copyFileSync(map, join(scratch, basename(map)));
  const { TraceMap, originalPositionFor } = await import("@jridgewell/trace-mapping");
  const traced = new TraceMap(readFileSync(map, "utf8"));
  return (line, column) => {
    const pos = originalPositionFor(traced, { line: line + 1, column });
    return pos.source
      ? `${pos.source.replace(/^.*?\/(src|node_modules|test)\//, "$1/")}:${pos.line}`
      : undefined;
  };
}

/** Self and total time by function, self time by file, from a V8 CPU profile. */
export function summarizeProfile(profile, mapped, windowMs = Number.POSITIVE_INFINITY) {
  const self = new Map();
  // `windowMs`: only the samples of the profile's first windowMs milliseconds.
  let at = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at > windowMs * 1000) break;
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const parent = new Map();
  const byId = new Map();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const c of node.children ?? []) parent.set(c, node.id);
  }
  const keyOf = new Map();
  const fileOf = new Map();
  for (const node of profile.nodes) {
    const f = node.callFrame;
    const where =
      (/(-entry|index)\.js$/.test(f.url) && mapped(f.lineNumber, f.columnNumber)) ||
      `${f.url || "(native)"}${f.url ? `:${f.lineNumber + 1}` : ""}`;
    keyOf.set(node.id, `${f.functionName || "(anonymous)"} ${where}`);
    fileOf.set(node.id, where.replace(/:\d+$/, ""));
  }
  const bySelf = new Map();
  const byTotal = new Map();
  const byFile = new Map();
  const byFileTotal = new Map();
  for (const [id, us] of self) {
    const key = keyOf.get(id);
    bySelf.set(key, (bySelf.get(key) ?? 0) + us);
    byFile.set(fileOf.get(id), (byFile.get(fileOf.get(id)) ?? 0) + us);
    const seen = new Set();
    const seenFiles = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) {
      seen.add(keyOf.get(n));
      seenFiles.add(fileOf.get(n));
    }
    for (const k of seen) byTotal.set(k, (byTotal.get(k) ?? 0) + us);
    for (const k of seenFiles) byFileTotal.set(k, (byFileTotal.get(k) ?? 0) + us);
  }
  const top = (m, n) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([k, us]) =>
          `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`,
      );
  return {
    totalMs: total / 1000,
    bySelf: top(bySelf, 40),
    byTotal: top(byTotal, 70),
    byFile: top(byFile, 30),
    byFileTotal: top(byFileTotal, 50),
  };
}

/** Prints a summary's tables. */
export function printSummary(summary) {
  for (const [title, lines] of [
    ["self time by function", summary.bySelf],
    ["total time by function (callees included)", summary.byTotal],
    ["self time by file", summary.byFile],
    ["total time by file (callees included)", summary.byFileTotal],
  ]) {
    console.log(`\n${title}:`);
    for (const line of lines) console.log(line);
  }
}
