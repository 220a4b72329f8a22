// Serve-time validation on a generated 20,000-file repository: the watcher-kept causal fingerprint (barrier +
// version check) against a full re-hash of the causal set (the seed's method), measured in the same run; and
// the three watchers compared (setup, event latency, and whether a file in a new directory is seen).
import { createHash } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  watch,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { summarize } from "../lib/stats.mjs";

const DIRS = 200;
const PER_DIR = 100;

export function makeRepo() {
  const root = join(mkdtempSync(join(tmpdir(), "airlock-precog-bench-")), "repo");
  mkdirSync(join(root, ".git"), { recursive: true });
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "big", scripts: { test: "node -e 0" } }));
  for (let d = 0; d < DIRS; d++) {
    const dir = join(root, "src", `m${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < PER_DIR; f++) {
      writeFileSync(
        join(dir, `f${f}.ts`),
        `export const v${f} = ${d * PER_DIR + f};\n// ${"x".repeat(200)}\n`,
      );
    }
  }
  return root;
}

/** The seed's serve-time check: collect the causal files and compare sha1 + size + mtime of each. */
function fullRehash(root) {
  const out = new Map();
  const walk = (rel) => {
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      const r = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.name === ".git" || e.name === "node_modules") continue;
      if (e.isDirectory()) walk(r);
      else if (e.isFile()) {
        const abs = join(root, r);
        const s = statSync(abs);
        out.set(r, `${createHash("sha1").update(readFileSync(abs)).digest("hex")}:${s.size}:${s.mtimeMs}`);
      }
    }
  };
  walk("");
  return out;
}

export async function validationBench(dist, iterations = 1000, rehashes = 20) {
  const { Precog } = await import(join(dist, "companion/futures/engine.js"));
  const { BUILTIN_CLASSES } = await import(join(dist, "companion/futures/command-classes.js"));
  const root = makeRepo();
  const precog = new Precog({ env: {}, log: () => {}, allowedNow: () => () => true });
  const setupStart = performance.now();
  const ws = await precog.workspace(root);
  const setupMs = performance.now() - setupStart;
  const cls = BUILTIN_CLASSES.find((c) => c.id === "bash:npm test");
  ws.versions.track(cls.id, cls.causal);
  await ws.sync();
  const edited = [];
  const untouched = [];
  for (let i = 0; i < iterations; i++) {
    const fp = ws.versions.current(cls.id);
    const file = join(root, "src", `m${i % DIRS}`, `f${i % PER_DIR}.ts`);
    writeFileSync(file, `export const v = ${i};\n`);
    // What a serve does for a fingerprinted command future: the barrier, then the version check.
    let t = performance.now();
    const ok = (await ws.sync()) && ws.versions.isCurrent(cls.id, fp);
    edited.push(performance.now() - t);
    if (ok) throw new Error("an edit was not seen: the validation is unsound");
    const fresh = ws.versions.current(cls.id);
    t = performance.now();
    const still = (await ws.sync()) && ws.versions.isCurrent(cls.id, fresh);
    untouched.push(performance.now() - t);
    if (!still) throw new Error("nothing changed, yet the future was invalidated");
  }
  const full = [];
  for (let i = 0; i < rehashes; i++) {
    const t = performance.now();
    fullRehash(root);
    full.push(performance.now() - t);
  }
  await precog.close();
  rmSync(join(root, ".."), { recursive: true, force: true });
  const e = summarize(edited);
  const f = summarize(full);
  return {
    files: DIRS * PER_DIR + 1,
    watch_setup_ms: Math.round(setupMs),
    after_one_edit: e,
    unchanged: summarize(untouched),
    full_rehash: f,
    p99_ms: e.p99_ms,
    // Conservative: the re-hash's median against the validation's p99.
    vs_full_rehash: Math.round((f.p50_ms / e.p99_ms) * 10) / 10,
  };
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Soundness probe on a small fresh tree: the watched `src/` is deleted and made again, then a new file, a file
 * in a new subdirectory, and edits follow (with pauses a person would leave). Are the later changes reported?
 */
async function recreatedDirectoryProbe(start) {
  const root = join(mkdtempSync(join(tmpdir(), "airlock-precog-probe-")), "ws");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(join(root, ".git"));
  writeFileSync(join(root, "src/a.ts"), "0");
  const seen = new Set();
  const stop = await start(root)((rel) => seen.add(rel));
  await pause(100);
  rmSync(join(root, "src"), { recursive: true });
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src/a.ts"), "1");
  await pause(200);
  seen.clear();
  writeFileSync(join(root, "src/b.ts"), "2");
  mkdirSync(join(root, "src/deep/x"), { recursive: true });
  writeFileSync(join(root, "src/deep/x/f.ts"), "1");
  await pause(200);
  writeFileSync(join(root, "src/deep/x/f.ts"), "2");
  await pause(200);
  await stop();
  rmSync(join(root, ".."), { recursive: true, force: true });
  // A change is covered when the path or a directory above it was reported.
  const covered = (rel) => [...seen].some((s) => rel === s || rel.startsWith(`${s}/`));
  return covered("src/b.ts") && covered("src/deep/x/f.ts");
}

/** Setup time, event latency (write → event) and whether an edit in a re-created directory is reported. */
export async function watcherComparison(dist, samples = 200) {
  const root = makeRepo();
  const { watchWorkspace } = await import(join(dist, "companion/futures/watcher.js"));
  const parcel = await import("@parcel/watcher");
  const backends = {
    "per-directory fs.watch (Airlock)": (dir) => async (onPath) => {
      const w = await watchWorkspace(dir, { changed: (rel) => onPath(rel), overflow: () => {} });
      return () => w.close();
    },
    "fs.watch recursive": (dir) => async (onPath) => {
      const w = watch(dir, { recursive: true }, (_e, name) => name && onPath(String(name)));
      return () => w.close();
    },
    "@parcel/watcher": (dir) => async (onPath) => {
      const sub = await parcel.subscribe(dir, (_err, events) => {
        for (const e of events) onPath(e.path.slice(dir.length + 1));
      });
      return () => sub.unsubscribe();
    },
  };
  const out = {};
  for (const [name, backend] of Object.entries(backends)) {
    const start = backend(root);
    const waiting = new Map();
    const seen = new Set();
    const t0 = performance.now();
    const stop = await start((rel) => {
      seen.add(rel);
      waiting.get(rel)?.();
    });
    const setup = performance.now() - t0;
    const arrive = (rel, ms = 2000) =>
      new Promise((resolve) => {
        if (seen.has(rel)) return resolve(true);
        const timer = setTimeout(() => resolve(false), ms);
        waiting.set(rel, () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    const latency = [];
    for (let i = 0; i < samples; i++) {
      const rel = `src/m${i % DIRS}/probe-${name.length}-${i}.ts`;
      const t = performance.now();
      writeFileSync(join(root, rel), "x");
      if (await arrive(rel)) latency.push(performance.now() - t);
    }
    await stop();
    out[name] = {
      setup_ms: Math.round(setup),
      event_latency: summarize(latency),
      missed_events: samples - latency.length,
      sees_changes_in_recreated_directory: await recreatedDirectoryProbe(backend),
    };
  }
  rmSync(join(root, ".."), { recursive: true, force: true });
  return out;
}
