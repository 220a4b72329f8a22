// Issue 20, over-asks round 7: paths the file tools name through a symlinked directory, judged with the
// disk as the companion judges them. `lnk/../x` where lnk is a symlink to a directory: the kernel goes to
// lnk's target's parent, so a lexical tidy (`x` in the workspace) would judge another file than the
// one opened.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { factLine } from "../../../../src/policy/call-facts.ts";
import { compilePolicy } from "../../../../src/policy/index.ts";
import { judgeCall } from "../../../../src/policy/judge-call.ts";
import { type DiskFixture, diskFixture, readOnlyPolicy } from "./disk-fixture.ts";

let fx: DiskFixture;
const disk = diskCheck({ env: {} });
const policy = readOnlyPolicy();

beforeAll(() => {
  fx = diskFixture();
  // lnk -> ~/.ssh (a directory out of the workspace); the workspace also has a harmless `id_rsa.pub`
  // and a file named like the secret's neighbour, so a lexical tidy lands on something allowed.
  symlinkSync(join(fx.home, ".ssh"), join(fx.ws, "lnk"));
  mkdirSync(join(fx.ws, "deep", "inner"), { recursive: true });
  symlinkSync(join(fx.home, ".aws"), join(fx.ws, "deep", "cloud"));
  // The same name in the workspace and in the home: lexically `lnk/../plans.txt` is the workspace's.
  writeFileSync(join(fx.ws, "plans.txt"), "harmless\n");
  writeFileSync(join(fx.home, "plans.txt"), "the home's, out of the workspace\n");
});
afterAll(() => fx.cleanup());

function judge(tool: string, input: Record<string, unknown>) {
  const j = judgeCall(policy, { tool, input, cwd: fx.ws, home: fx.home }, { hasUI: true }, disk);
  return { action: j.record.action, why: j.facts.map(factLine).join("\n") };
}

describe("a file tool's path through a symlinked directory and `..`", () => {
  it.each([
    // lnk/.. is ~ (the target's parent): ~/.ssh/id_rsa, ~/.aws/credentials
    ["read", { file_path: "lnk/../.ssh/id_rsa" }],
    ["read", { file_path: "lnk/../.aws/credentials" }],
    ["read", { file_path: "./lnk/../.aws/credentials" }],
    ["read", { file_path: "deep/cloud/../.ssh/id_rsa" }],
    ["read", { file_path: "deep/cloud/../../home/.ssh/id_rsa" }],
    // Names that are no secret: only the kernel's resolution (out of the workspace) tells.
    ["read", { file_path: "lnk/../plans.txt" }],
    ["read", { file_path: "deep/cloud/../plans.txt" }],
  ])("never allows %s %j (the kernel's path is out of the workspace)", (tool, input) => {
    const r = judge(tool, input);
    expect(r.action).not.toBe("allow");
  });

  it("an absolute path through the link is judged the same way (node's path.join would tidy it)", () => {
    expect(judge("read", { file_path: `${fx.ws}/lnk/../.aws/credentials` }).action).not.toBe("allow");
    expect(judge("read", { file_path: `${fx.ws}/lnk/../plans.txt` }).action).not.toBe("allow");
  });

  it("the same name without the link is the workspace's file, and allowed", () => {
    expect(judge("read", { file_path: "plans.txt" }).action).toBe("allow");
  });

  it("a `..` with no symlink before it stays an ordinary read in the workspace", () => {
    expect(judge("read", { file_path: "deep/inner/../../plans.txt" }).action).toBe("allow");
    expect(judge("read", { file_path: "src/../package.json" }).action).toBe("allow");
  });
});

describe("a `file:` name that is no `file://` URL (red team round 7, a suspicion)", () => {
  it.each(["file:/etc/passwd", `file:${"/tmp"}/x`, "FILE:/x", "file:x"])(
    "never allows read %s: a join makes it a workspace name, a URL parser an absolute path",
    (p) => {
      expect(judge("read", { file_path: p }).action).not.toBe("allow");
    },
  );
});

describe("`..` after a symlink out of the workspace: the rules' tidy path is not the kernel's", () => {
  it("an allowed path outside the workspace, reached through a link's `..`, asks and says why", () => {
    const allowsPlans = (() => {
      const c = compilePolicy([
        {
          layer: "user",
          path: "plans",
          text: `version: 1
default_action: ask
rules:
  - name: the home's plans
    condition: 'tool == "read" && path == "${fx.home}/plans.txt"'
    action: allow
`,
        },
      ]);
      if (!c.ok) throw new Error(JSON.stringify(c.errors));
      return c.policy;
    })();
    // ~/deep/lnk -> BASE/elsewhere/inner: `~/deep/lnk/../../plans.txt` reads as ~/plans.txt tidied, but the
    // kernel climbs from the link's target: BASE/plans.txt, another file than the rule allowed.
    const via = `${fx.home}/deep`;
    mkdirSync(via, { recursive: true });
    mkdirSync(`${fx.base}/elsewhere/inner`, { recursive: true });
    writeFileSync(`${fx.base}/elsewhere/plans.txt`, "not the home's\n");
    symlinkSync(`${fx.base}/elsewhere/inner`, `${via}/lnk`);
    const j = judgeCall(
      allowsPlans,
      { tool: "read", input: { file_path: `${via}/lnk/../../plans.txt` }, cwd: fx.ws, home: fx.home },
      { hasUI: true },
      disk,
    );
    expect(j.record.action).not.toBe("allow");
    expect(j.facts.map(factLine).join("\n")).toContain("after a symlink");
    // The same file by its plain name is what the rule allows.
    const plain = judgeCall(
      allowsPlans,
      { tool: "read", input: { file_path: `${fx.home}/plans.txt` }, cwd: fx.ws, home: fx.home },
      { hasUI: true },
      disk,
    );
    expect(plain.record.action).toBe("allow");
  });
});
