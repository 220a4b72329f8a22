// Never (red team, round 13): `ls ~/.ssh` through the shell ran unasked while the LS tool on ~/.ssh asked.
// A secret directory's names say which keys, accounts and credentials exist (`~/.password-store` names
// every account), so a listing of one asks, by the shell's listing programs and by the file tools alike,
// inside the workspace too (`secrets/`). Listings elsewhere, and a secret file's own name (`ls -la .env`),
// stay allowed.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantUnitsOf } from "../../../../src/policy/grant-units.ts";
import { type DiskFixture, diskFixture, judgeOnDisk, STARTERS } from "./disk-fixture.ts";

let fx: DiskFixture;
beforeAll(() => {
  fx = diskFixture();
  mkdirSync(join(fx.ws, "secrets"));
  writeFileSync(join(fx.ws, "secrets", "prod-db.txt"), "x\n");
  mkdirSync(join(fx.home, ".password-store", "bank"), { recursive: true });
  writeFileSync(join(fx.home, ".password-store", "bank", "mybank.example.gpg"), "x");
  mkdirSync(join(fx.home, ".config", "app"), { recursive: true });
});
afterAll(() => fx.cleanup());

const judge = (policy: (typeof STARTERS)[number][1], tool: string, input: Record<string, unknown>) =>
  judgeOnDisk(policy, { tool, input, cwd: fx.ws, home: fx.home });

describe("a listing of a secret directory's names asks, by the shell and by the file tools (written first)", () => {
  it("the shell's listing programs", () => {
    for (const command of [
      "ls ~/.ssh",
      "ls -la ~/.ssh/",
      `ls ${fx.home}/.ssh`,
      "ls ~/.ssh/*",
      "find ~/.ssh",
      "find ~/.ssh -name 'id_*'",
      "du -a ~/.ssh",
      "ls ~/.aws",
      "ls -R ~/.password-store",
      "ls secrets",
      "ls ./secrets/",
    ])
      for (const [name, policy] of STARTERS) {
        const r = judge(policy, "bash", { command });
        expect(r.action, `${name}: ${command}\n${r.reasons.join("\n")}`).toBe("ask");
        expect(r.reasons.join("\n"), command).toMatch(/names of a secret directory/);
      }
    // Listing from inside (its directory is not the workspace, so no rule allows it anyway).
    for (const [name, policy] of STARTERS)
      expect(judge(policy, "bash", { command: "cd ~/.ssh && ls" }).action, name).toBe("ask");
  });

  it("the LS and Glob tools, inside the workspace too", () => {
    for (const [tool, input] of [
      ["LS", { path: `${fx.home}/.ssh` }],
      ["LS", { path: "~/.ssh" }],
      ["LS", { path: join(fx.ws, "secrets") }],
      ["Glob", { pattern: "~/.ssh/*" }],
      ["Glob", { pattern: "*", path: join(fx.ws, "secrets") }],
      ["Glob", { pattern: "secrets/*" }],
      ["Glob", { pattern: "**/*", path: `${fx.home}/.aws` }],
    ] as const)
      for (const [name, policy] of STARTERS) {
        const r = judge(policy, tool, input);
        expect(r.action, `${name}: ${tool} ${JSON.stringify(input)}\n${r.reasons.join("\n")}`).toBe("ask");
      }
  });
});

describe("no grant covers a secret directory's listing (no plain allow rule does)", () => {
  it("the LS tool's unit and the shell's listing unit are not coverable; the workspace's are", () => {
    const units = (tool: string, input: Record<string, unknown>) =>
      grantUnitsOf({ tool, input, cwd: fx.ws, home: fx.home });
    for (const [tool, input] of [
      ["ls", { path: `${fx.home}/.ssh` }],
      ["ls", { path: join(fx.ws, "secrets") }],
      ["bash", { command: "ls ~/.ssh" }],
      ["bash", { command: "find secrets" }],
    ] as const)
      expect(
        units(tool, input).some((u) => !u.coverable),
        `${tool} ${JSON.stringify(input)}`,
      ).toBe(true);
    for (const [tool, input] of [
      ["ls", { path: join(fx.ws, "src") }],
      ["bash", { command: "ls src" }],
    ] as const)
      expect(
        units(tool, input).every((u) => u.coverable),
        `${tool} ${JSON.stringify(input)}`,
      ).toBe(true);
  });
});

describe("other listings stay as they were", () => {
  it("the shell lists the workspace, home and system directories, and names a secret file, unasked", () => {
    for (const command of [
      "ls",
      "ls -la",
      "ls src",
      "ls ~",
      "ls ~/.config",
      "ls /etc",
      "ls -la .env",
      "find . -name '*.ts'",
      "find src",
    ])
      for (const [name, policy] of STARTERS) {
        const r = judge(policy, "bash", { command });
        expect(r.action, `${name}: ${command}\n${r.reasons.join("\n")}`).toBe("allow");
      }
  });

  it("the LS and Glob tools in the workspace run", () => {
    for (const [tool, input] of [
      ["LS", { path: fx.ws }],
      ["LS", { path: join(fx.ws, "src") }],
      ["Glob", { pattern: "src/*.ts" }],
    ] as const)
      for (const [name, policy] of STARTERS) {
        const r = judge(policy, tool, input);
        expect(r.action, `${name}: ${tool} ${JSON.stringify(input)}\n${r.reasons.join("\n")}`).toBe("allow");
      }
  });
});
