// Red team round 23: under Node 22 `statSync(p, { throwIfNoEntry: false })` still throws ENOTDIR, so a disk
// check that looked for `b.txt/.envrc` (a copy onto an existing file, judged as a copy into it too) threw, and
// the hook denied "deciding it failed". Every disk check asks fs-entry.ts, which answers undefined for both.
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lstatEntry, statEntry } from "../../../../src/companion/guards/fs-entry.ts";
import { BALANCED, judgeCommand } from "./judge-command.ts";

const ws = realpathSync(mkdtempSync(join(tmpdir(), "airlock-fs-entry-")));
afterAll(() => rmSync(ws, { recursive: true, force: true }));
writeFileSync(join(ws, "a.txt"), "a\n");
writeFileSync(join(ws, "b.txt"), "b\n");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name));
}

describe("a file's status, or none", () => {
  it.each([
    ["a missing file", "missing.txt"],
    ["a path through a file (ENOTDIR)", "b.txt/.envrc"],
  ])("%s is none, followed or not", (_what, rel) => {
    expect(statEntry(join(ws, rel))).toBeUndefined();
    expect(lstatEntry(join(ws, rel))).toBeUndefined();
  });

  it("a file is there", () => {
    expect(statEntry(join(ws, "a.txt"))?.isFile()).toBe(true);
    expect(lstatEntry(join(ws, "a.txt"))?.isFile()).toBe(true);
  });

  it("no source asks node for throwIfNoEntry itself", () => {
    const offenders = sources("src").filter(
      (f) => !f.endsWith("fs-entry.ts") && /throwIfNoEntry/.test(readFileSync(f, "utf8")),
    );
    expect(offenders).toEqual([]);
  });

  it("a copy onto an existing workspace file is judged, not failed", () => {
    const j = judgeCommand(ws, "cp a.txt b.txt", { policy: BALANCED });
    expect(j.action, j.reason).toBe("allow");
  });
});
