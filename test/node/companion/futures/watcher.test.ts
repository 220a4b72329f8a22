// The workspace watcher on a real tree: after a barrier every earlier change has been reported, including in
// directories created, replaced or moved in after the watch began; floods count as overflow.
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type WorkspaceWatcher, watchWorkspace } from "../../../../src/companion/futures/watcher.ts";

let root: string;
let watcher: WorkspaceWatcher | undefined;
let changes: { rel: string; kind: string }[];
let overflows: string[];

beforeEach(async () => {
  root = join(realpathSync(mkdtempSync(join(tmpdir(), "airlock-watch-"))), "ws");
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(join(root, "src"), { recursive: true });
  writeFileSync(join(root, "src/a.ts"), "a");
  changes = [];
  overflows = [];
  watcher = await watchWorkspace(root, {
    changed: (rel, kind) => changes.push({ rel, kind }),
    overflow: (reason) => overflows.push(reason),
  });
});

afterEach(() => {
  watcher?.close();
  rmSync(join(root, ".."), { recursive: true, force: true });
});

function reported(rel: string): boolean {
  // A change is covered when the path itself or a directory above it was reported as a whole tree.
  return changes.some((c) => c.rel === rel || (c.kind === "tree" && rel.startsWith(`${c.rel}/`)));
}

describe("workspace watcher", () => {
  it("reports a plain edit by the time the barrier resolves", async () => {
    await watcher?.sync();
    changes = [];
    writeFileSync(join(root, "src/a.ts"), "b");
    await watcher?.sync();
    expect(reported("src/a.ts")).toBe(true);
  });

  it("sees files in a directory tree created after the watch began, and later edits in it", async () => {
    mkdirSync(join(root, "src/deep/er"), { recursive: true });
    writeFileSync(join(root, "src/deep/er/f.ts"), "1");
    await watcher?.sync();
    expect(reported("src/deep/er/f.ts")).toBe(true);
    changes = [];
    writeFileSync(join(root, "src/deep/er/f.ts"), "2");
    await watcher?.sync();
    expect(reported("src/deep/er/f.ts")).toBe(true);
  });

  it("keeps watching a directory deleted and recreated under the same name (inode numbers get reused)", async () => {
    rmSync(join(root, "src"), { recursive: true });
    mkdirSync(join(root, "src"));
    writeFileSync(join(root, "src/a.ts"), "new");
    await watcher?.sync();
    changes = [];
    writeFileSync(join(root, "src/a.ts"), "newer");
    await watcher?.sync();
    expect(reported("src/a.ts")).toBe(true);
  });

  it("follows a directory moved into the workspace", async () => {
    const outside = join(root, "..", "incoming");
    mkdirSync(outside);
    writeFileSync(join(outside, "x.ts"), "x");
    renameSync(outside, join(root, "src/incoming"));
    await watcher?.sync();
    expect(reported("src/incoming/x.ts")).toBe(true);
    changes = [];
    writeFileSync(join(root, "src/incoming/x.ts"), "y");
    await watcher?.sync();
    expect(reported("src/incoming/x.ts")).toBe(true);
  });

  it("never reports its own cookies, node_modules/ or .git/", async () => {
    mkdirSync(join(root, "node_modules/dep"), { recursive: true });
    writeFileSync(join(root, "node_modules/dep/i.js"), "1");
    writeFileSync(join(root, ".git/index"), "1");
    await watcher?.sync();
    expect(changes).toEqual([]);
  });

  it("treats a flood of events between two barriers as an overflow", async () => {
    // More than half the kernel's max_queued_events (16384 by default) in one burst; distinct files, since
    // the kernel folds identical consecutive events into one.
    mkdirSync(join(root, "src/flood"));
    await watcher?.sync();
    for (let i = 0; i < 9_000; i++) writeFileSync(join(root, `src/flood/${i}.ts`), "x");
    await watcher?.sync().catch(() => undefined);
    expect(overflows.length).toBeGreaterThan(0);
  });

  it("a barrier that cannot complete reports an overflow and rejects", async () => {
    watcher?.close();
    await expect(watcher?.sync()).rejects.toThrow();
  });
});
