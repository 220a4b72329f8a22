// kernelJoin: a file tool's path as the kernel walks it. A `..` after a named segment is left for the
// kernel (a symlink decides where it goes); everything else is tidied exactly as resolvePath tidies it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { kernelJoin, normalizePath, resolvePath } from "../../../src/policy/paths.ts";

const seg = fc.constantFrom("a", "lnk", ".", "..", "", ".env", "x y");
const rel = fc.array(seg, { maxLength: 7 }).map((s) => s.join("/"));

describe("kernelJoin", () => {
  it("keeps `..` after a named segment, so the disk resolves it through symlinks", () => {
    expect(kernelJoin("/ws", "lnk/../x")).toBe("/ws/lnk/../x");
    expect(kernelJoin("/ws", "./lnk//../x")).toBe("/ws/lnk/../x");
    expect(kernelJoin("/ws", "/ws/lnk/../x")).toBe("/ws/lnk/../x");
    expect(kernelJoin("/ws/", "../x")).toBe("/x");
  });

  it("property: it equals resolvePath whenever no `..` follows a named segment", () => {
    fc.assert(
      fc.property(rel, (p) => {
        const k = kernelJoin("/ws", p);
        const named = p.split("/").filter((s) => s !== "" && s !== ".");
        const firstName = named.findIndex((s) => s !== "..");
        const climbsLater = firstName >= 0 && named.slice(firstName).includes("..");
        if (!climbsLater && !p.startsWith("/")) expect(k).toBe(resolvePath("/ws", p));
        // Never drops a `..` that follows a name, and never changes what the names are.
        if (climbsLater) {
          expect(k.split("/").filter((s) => s === "..").length).toBeGreaterThan(0);
          expect(normalizePath(k)).toBe(resolvePath("/ws", p));
        }
      }),
      { numRuns: 2000 },
    );
  });
});
