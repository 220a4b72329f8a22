// Red team round 20 (r20-01): with corepack's npm shim first on PATH (`corepack enable npm`), an edit adding
// `"packageManager": "npm@10.9.1"` to package.json made the next allowed `npm --version` (or `npm ls`, `npx
// --version`) download that npm release and run it instead of the npm the judge reasoned about. A plain npm
// reads no such field: only while the npm PATH finds is corepack's shim does the field ask.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleWorkspace } from "../profiles/sample-workspace.ts";
import { AUTONOMOUS, BALANCED, judgeCommand } from "./judge-command.ts";

let ws: string;
let tools: string;
let shimPath: string;
let plainPath: string;
let manifest: string;

function executable(file: string): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, "#!/bin/sh\nexit 0\n");
  chmodSync(file, 0o755);
}

beforeAll(() => {
  ws = sampleWorkspace();
  manifest = readFileSync(join(ws, "package.json"), "utf8");
  tools = mkdtempSync(join(tmpdir(), "airlock-r20-"));
  // corepack enable --install-directory BIN npm: BIN/npm and BIN/npx are links to corepack's shims.
  for (const name of ["npm", "npx"]) {
    executable(join(tools, "lib/node_modules/corepack/shims", name));
    executable(join(tools, "plain", name));
    mkdirSync(join(tools, "bin"), { recursive: true });
    symlinkSync(join(tools, "lib/node_modules/corepack/shims", name), join(tools, "bin", name));
  }
  shimPath = `${join(tools, "bin")}:/usr/bin:/bin`;
  plainPath = `${join(tools, "plain")}:/usr/bin:/bin`;
});
afterAll(() => {
  rmSync(ws, { recursive: true, force: true });
  rmSync(tools, { recursive: true, force: true });
});

function withManifest(fields: Record<string, unknown> | string, check: () => void): void {
  const text = typeof fields === "string" ? fields : JSON.stringify({ ...JSON.parse(manifest), ...fields });
  writeFileSync(join(ws, "package.json"), text);
  try {
    check();
  } finally {
    writeFileSync(join(ws, "package.json"), manifest);
  }
}

const COMMANDS = ["npm --version", "npm ls", "npx --version", "cd src && npm --version"];

describe("corepack's npm shim on PATH and a project naming an npm release", () => {
  it.each([
    ["packageManager", { packageManager: "npm@10.9.1" }],
    ["devEngines", { devEngines: { packageManager: { name: "npm", version: "10.9.1" } } }],
    ["an escaped key", `{"name":"sample","\\u0070ackageManager":"npm@10.9.1"}`],
  ] as const)("%s: every npm call asks, under either starter", (_name, fields) => {
    withManifest(fields, () => {
      for (const command of COMMANDS)
        for (const policy of [BALANCED, AUTONOMOUS]) {
          const { action, reason } = judgeCommand(ws, command, { policy, env: { PATH: shimPath } });
          expect(action, `${command}: ${reason}`).toBe("ask");
          expect(reason).toContain("corepack");
        }
    });
  });
});

describe("what stays as it was", () => {
  it("a plain npm on PATH reads no packageManager: npm --version is allowed", () => {
    withManifest({ packageManager: "npm@10.9.1" }, () => {
      for (const command of ["npm --version", "npx --version"])
        expect(judgeCommand(ws, command, { env: { PATH: plainPath } }).action).toBe("allow");
    });
  });

  it("the shim with no npm release named, or another package manager named, is allowed", () => {
    expect(judgeCommand(ws, "npm --version", { env: { PATH: shimPath } }).action).toBe("allow");
    withManifest({ packageManager: "pnpm@9.0.0" }, () => {
      expect(judgeCommand(ws, "npm --version", { env: { PATH: shimPath } }).action).toBe("allow");
    });
  });
});
