// The Worker reads a script for sh with mvdan/sh's POSIX grammar as the companion does: the deferred
// parser (src/edge/shims/mvdan-sh-deferred.ts) must serve that grammar too, once loaded.
import { describe, expect, it } from "vitest";
import { loadShellParser } from "../../src/edge/shims/mvdan-sh-deferred.ts";
import { analyzeShell } from "../../src/policy/index.ts";

describe("scripts for sh at the edge", () => {
  it("refuses what dash reads differently and reads what it reads alike", async () => {
    await loadShellParser();
    const hidden = analyzeShell(`sh -c "echo \\$'\\\\' ; cat ~/.ssh/id_ed25519 ; # '"`).units;
    expect(hidden.some((u) => u.kind === "unparsable" && /sh \(dash/.test(u.reason))).toBe(true);
    const plain = analyzeShell("sh -c 'ls -la | wc -l && echo \"$(date)\"'").units;
    expect(plain.filter((u) => u.kind === "unparsable")).toEqual([]);
    expect(plain.some((u) => u.kind === "exec" && u.text === "wc -l")).toBe(true);
  });
});
