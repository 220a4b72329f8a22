// Stale-serve fuzz: the workspace is mutated between warm and serve in every way the safety model names, and a
// served result must always equal what the real tool would return now, and never come from a forbidden file.
import { createHash } from "node:crypto";
import {
  appendFileSync,
  lstatSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outputText } from "../../../../src/companion/futures/command-futures.ts";
import { type PrecogFixture, precogFixture } from "./fixture.ts";

const FILES = ["src/a.ts", "src/b.ts", "src/c.ts"];
const BASE: Record<string, string> = {
  "package.json": JSON.stringify({ name: "fuzz", scripts: { test: "node test/run.js" } }),
  // Prints a digest of every file under src/, so its output changes whenever any of them does.
  "test/run.js": `const fs=require("fs"),c=require("crypto");const h=c.createHash("sha1");for(const f of fs.readdirSync("src").sort()){h.update(f);try{h.update(fs.readFileSync("src/"+f))}catch{h.update("!")}}console.log("digest",h.digest("hex"));`,
  "src/a.ts": "export const a = 1;\n",
  "src/b.ts": "export const b = 'bbbbbbbb';\n",
  "src/c.ts": "export const c = [1, 2, 3];\n",
};

/** What `npm test` prints right now, computed independently of the engine. */
function expectedTestDigest(root: string): string {
  const h = createHash("sha1");
  for (const f of readdirSync(join(root, "src")).sort()) {
    h.update(f);
    try {
      h.update(readFileSync(join(root, "src", f)));
    } catch {
      h.update("!");
    }
  }
  return `digest ${h.digest("hex")}`;
}

type Mutation =
  | { kind: "none" }
  | { kind: "same-size-same-mtime"; file: number }
  | { kind: "inode-swap"; file: number }
  | { kind: "symlink-to-secret"; file: number; target: "env" | "outside" }
  | { kind: "grow-past-cap"; file: number }
  | { kind: "nul-byte"; file: number }
  | { kind: "delete"; file: number }
  | { kind: "overflow" }
  | { kind: "new-file" };

const fileIndex = fc.integer({ min: 0, max: FILES.length - 1 });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant({ kind: "none" as const }),
  fileIndex.map((file) => ({ kind: "same-size-same-mtime" as const, file })),
  fileIndex.map((file) => ({ kind: "inode-swap" as const, file })),
  fc.record({
    kind: fc.constant("symlink-to-secret" as const),
    file: fileIndex,
    target: fc.constantFrom("env" as const, "outside" as const),
  }),
  fileIndex.map((file) => ({ kind: "grow-past-cap" as const, file })),
  fileIndex.map((file) => ({ kind: "nul-byte" as const, file })),
  fileIndex.map((file) => ({ kind: "delete" as const, file })),
  fc.constant({ kind: "overflow" as const }),
  fc.constant({ kind: "new-file" as const }),
);

function flip(text: string): string {
  // Same length, different bytes.
  return text.replace(/[a-z0-9]/, (ch) => (ch === "x" ? "y" : "x"));
}

async function apply(fx: PrecogFixture, m: Mutation): Promise<void> {
  const path = (i: number) => join(fx.root, FILES[i] ?? "src/a.ts");
  switch (m.kind) {
    case "none":
      return;
    case "same-size-same-mtime": {
      const p = path(m.file);
      // An earlier mutation may have deleted it or made it a symlink: then there is nothing to rewrite.
      if (!lstatSync(p, { throwIfNoEntry: false })?.isFile()) return;
      const before = statSync(p);
      writeFileSync(p, flip(readFileSync(p, "utf8")));
      utimesSync(p, before.atime, before.mtime);
      return;
    }
    case "inode-swap": {
      const p = path(m.file);
      if (!lstatSync(p, { throwIfNoEntry: false })?.isFile()) return;
      writeFileSync(`${p}.tmp`, flip(readFileSync(p, "utf8")));
      renameSync(`${p}.tmp`, p);
      return;
    }
    case "symlink-to-secret": {
      const p = path(m.file);
      rmSync(p, { force: true });
      symlinkSync(m.target === "env" ? join(fx.root, ".env") : join(fx.outside, "id_rsa"), p);
      return;
    }
    case "grow-past-cap":
      appendFileSync(path(m.file), "x".repeat(30 * 1024));
      return;
    case "nul-byte":
      writeFileSync(path(m.file), Buffer.from([0x63, 0x00, 0x0a]));
      return;
    case "delete":
      rmSync(path(m.file), { force: true });
      return;
    case "overflow":
      (await fx.precog.workspace(fx.root)).injectOverflow();
      return;
    case "new-file":
      writeFileSync(join(fx.root, "src", `new-${Date.now()}.ts`), "export {};\n");
      return;
  }
}

/** What the real read tool would see now, or null when the path must not be served at all. */
function currentReadable(root: string, rel: string): string | null {
  const p = join(root, rel);
  const info = lstatSync(p, { throwIfNoEntry: false });
  if (!info?.isFile()) return null;
  const bytes = readFileSync(p);
  if (bytes.length > 24 * 1024 || bytes.includes(0)) return null;
  return bytes.toString("utf8");
}

let fx: PrecogFixture;
beforeAll(async () => {
  fx = await precogFixture({ AIRLOCK_PRECOG_CACHE_DELAY_MS: "0" }, BASE);
});
afterAll(async () => {
  await fx.close();
});

function reset(): void {
  rmSync(join(fx.root, "src"), { recursive: true, force: true });
  for (const [rel, content] of Object.entries(BASE)) fx.write(rel, content);
}

describe("stale-serve fuzz", () => {
  it("never serves a stale or forbidden read or command result", async () => {
    let hits = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 0, maxLength: 3 }), async (mutations) => {
        reset();
        await fx.precog.warm({
          source: "prompt",
          cwd: fx.root,
          text: `look at ${FILES.join(" ")} and run the tests`,
        });
        await fx.precog.settled();
        for (const m of mutations) await apply(fx, m);
        for (const rel of FILES) {
          const result = await fx.precog.serve(fx.root, { tool: "read", path: rel });
          if (!result.hit || result.future.kind !== "read") continue;
          hits++;
          const now = currentReadable(fx.root, rel);
          expect(now, `${rel} served after ${JSON.stringify(mutations)}`).not.toBeNull();
          expect(result.future.bytes.toString("utf8")).toBe(now);
          expect(result.future.bytes.toString("utf8")).not.toContain("sk-live-secret");
          expect(result.future.bytes.toString("utf8")).not.toContain("PRIVATE");
        }
        const test = await fx.precog.serve(fx.root, { tool: "bash", command: "npm test" });
        if (test.hit && test.future.kind === "command") {
          hits++;
          expect(outputText(test.future), `npm test served after ${JSON.stringify(mutations)}`).toContain(
            expectedTestDigest(fx.root),
          );
        }
      }),
      { numRuns: 40 },
    );
    // The property is not vacuous: unmutated futures were served.
    expect(hits).toBeGreaterThan(0);
    // Each case warms a real `npm test`: on a loaded 2-core machine that is seconds, not milliseconds.
  }, 300_000);
});
