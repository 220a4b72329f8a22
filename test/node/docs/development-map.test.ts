// docs/development.md maps the tree: every folder of src/ and web/, every bench and every test folder to three
// levels (test/node/policy/) has its line, and every line names a folder that exists.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const DOC = readFileSync(join(ROOT, "docs", "development.md"), "utf8");
const MAP = DOC.slice(DOC.indexOf("```\n") + 4, DOC.indexOf("```\n", DOC.indexOf("```\n") + 4));
const mapped = MAP.split("\n")
  .map((line) => line.split(/\s+/)[0] ?? "")
  .filter((path) => path.endsWith("/"));

/** Folders that hold tracked files, cut to `depth` levels under their top folder. */
function trackedFolders(top: string, depth: number): Set<string> {
  const files = execFileSync("git", ["ls-files", top], { cwd: ROOT, encoding: "utf8" }).split("\n");
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split("/").slice(0, -1);
    for (let n = 1; n <= Math.min(parts.length, depth); n++) folders.add(`${parts.slice(0, n).join("/")}/`);
  }
  return folders;
}

describe("docs/development.md's map", () => {
  it("has a line for every folder of src/, web/, bench/, test/ and scripts/", () => {
    const expected = [
      ...trackedFolders("src", 99),
      ...trackedFolders("web", 99),
      ...trackedFolders("bench", 2),
      ...trackedFolders("test", 3),
      ...trackedFolders("scripts", 1),
    ];
    // src/ and test/ themselves are said by their folders' lines.
    const missing = expected.filter((f) => f !== "src/" && f !== "test/" && !mapped.includes(f));
    expect(missing).toEqual([]);
  });

  it("names only folders that exist, once each", () => {
    expect(mapped.length).toBeGreaterThan(50);
    for (const path of mapped)
      expect(existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isDirectory(), path).toBe(true);
    expect(new Set(mapped).size).toBe(mapped.length);
  });
});
