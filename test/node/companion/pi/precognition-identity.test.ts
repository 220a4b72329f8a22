// The Pi overrides serve byte-identical results: Pi's own read and bash tools (the real package) run once on
// the real file or command, once over a future's cached bytes, and must agree exactly (errors included).
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createBashToolDefinition,
  createReadToolDefinition,
  type ExtensionContext,
} from "@earendil-works/pi-coding-agent";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replayBash, replayRead } from "../../../../src/companion/adapters/pi/precognition.ts";
import { runWarm } from "../../../../src/companion/futures/command-futures.ts";
import { warmRead } from "../../../../src/companion/futures/read-futures.ts";

let dir: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "airlock-pi-identity-")));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The context Pi hands a tool: these tools read only cwd (and model, for image notes).
const ctx = (): ExtensionContext => ({ cwd: dir }) as unknown as ExtensionContext;

type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

async function outcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

const line = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.constant("x".repeat(600)),
);
const text = fc.array(line, { maxLength: 120 }).map((lines) => lines.join("\n").replace(/\0/g, ""));
const window = fc.record(
  { offset: fc.integer({ min: 1, max: 140 }), limit: fc.integer({ min: 0, max: 60 }) },
  { requiredKeys: [] },
);

describe("Pi read served from a future", () => {
  it("equals Pi's own read of the file, for any text and any offset/limit", async () => {
    await fc.assert(
      fc.asyncProperty(text, window, async (content, args) => {
        writeFileSync(join(dir, "file.ts"), content);
        const future = await warmRead(dir, "file.ts", 1024 * 1024);
        if ("refused" in future) return;
        const params = { path: "file.ts", ...args };
        const cold = await outcome(() =>
          createReadToolDefinition(dir).execute("t", params, undefined, undefined, ctx()),
        );
        const served = await outcome(() =>
          createReadToolDefinition(dir, { operations: replayRead(future.bytes) }).execute(
            "t",
            params,
            undefined,
            undefined,
            ctx(),
          ),
        );
        expect(served).toEqual(cold);
      }),
      { numRuns: 150 },
    );
  });
});

describe("Pi bash served from a future", () => {
  const script = fc.record({
    lines: fc.integer({ min: 0, max: 2600 }),
    width: fc.integer({ min: 1, max: 40 }),
    stderr: fc.boolean(),
    exit: fc.constantFrom(0, 1, 3, 42),
  });

  it("equals Pi's own bash run, output, truncation notice and exit status included", async () => {
    await fc.assert(
      fc.asyncProperty(script, async ({ lines, width, stderr, exit }) => {
        const command = `for i in $(seq 1 ${lines}); do printf '%0${width}d\\n' "$i"${stderr ? " >&2" : ""}; done; exit ${exit}`;
        const cold = await outcome(() =>
          createBashToolDefinition(dir).execute("t", { command }, undefined, undefined, ctx()),
        );
        const run = await runWarm(command, dir, new AbortController().signal);
        if (!run.ok) throw new Error(`warm failed: ${run.reason}`);
        const served = await outcome(() =>
          createBashToolDefinition(dir, {
            operations: replayBash(
              run.chunks.map((c) => c.data),
              run.exitCode,
            ),
          }).execute("t", { command }, undefined, undefined, ctx()),
        );
        // Truncated output is saved to a fresh temp file each time: the path is the only allowed difference.
        const normalize = (o: Outcome) =>
          JSON.stringify(o).replace(/\/[^"\]\s]*pi-bash-[^"\]\s]*/g, "<full output>");
        expect(normalize(served)).toBe(normalize(cold));
      }),
      { numRuns: 25 },
    );
  });
});
