// Never (red team, round 11): a Glob whose `path` (or the fixed leading directories of its pattern)
// passes a symlink out of the workspace lists the names of the link's target: `homelink -> ~` in the
// project made `Glob {pattern: "*", path: "homelink"}` list HOME (.ssh/id_ed25519, .aws/credentials).
// LS, Grep and Read of the same path already asked; Glob's directory is resolved on disk as theirs are.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { judgeOnDisk } from "./disk-fixture.ts";

mkdirSync("/tmp/rt11fix", { recursive: true });
const base = mkdtempSync("/tmp/rt11fix/glob-");
const home = join(base, "home");
const ws = join(base, "proj");
mkdirSync(join(home, ".ssh"), { recursive: true });
writeFileSync(join(home, ".ssh", "id_ed25519"), "FAKEKEY\n");
mkdirSync(join(ws, "src"), { recursive: true });
writeFileSync(join(ws, "src", "a.ts"), "export {};\n");
symlinkSync(home, join(ws, "homelink"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function judge(tool: string, input: Record<string, unknown>) {
  const disk = diskCheck({ env: { HOME: home } });
  return [CAUTIOUS, BALANCED].map((p) => judgeOnDisk(p, { tool, input, cwd: ws, home }, { disk }));
}

describe("Glob through a symlink out of the workspace", () => {
  it.each([
    { pattern: "*", path: "homelink" },
    { pattern: "**/*", path: "homelink" },
    { pattern: "*", path: `${ws}/homelink` },
    { pattern: "*", path: "homelink/.ssh" },
    { pattern: "homelink/*" },
    { pattern: "homelink/.ssh/*" },
    { pattern: "*", path: "src/../homelink" },
  ])("asks for %j, as LS of the same directory does", (input) => {
    for (const r of judge("Glob", input)) {
      expect(r.action, r.why + r.reasons.join("\n")).not.toBe("allow");
      expect(r.why).toMatch(/through a symlink/);
    }
    for (const r of judge("LS", { path: "homelink" })) expect(r.action).not.toBe("allow");
  });

  it("a Glob in the workspace itself is still allowed", () => {
    for (const input of [{ pattern: "**/*.ts" }, { pattern: "*.ts", path: "src" }, { pattern: "src/*.ts" }]) {
      for (const r of judge("Glob", input)) expect(r.action, r.why + r.reasons.join("\n")).toBe("allow");
    }
  });
});
