// Airlock as a Pi package: package.json's `pi` manifest and `pi-package` keyword let the real Pi install it by path
// (`pi install <checkout>`), and Pi then loads the extension on its own: the policy's `rm` deny reaches the model.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_YES_RM_NO, NODE, ROOT, type SealedHome, sealedHome } from "../support/airlock-env.ts";
import { ensureBuilt } from "../support/build.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";
import { PI_CLI } from "../support/pi-rpc.ts";
import { type ProcessRun, runToEnd } from "../support/run-process.ts";

let base: string;
let ws: string;
let agentDir: string;
let sealed: SealedHome;
let model: ModelServer;
let install: ProcessRun;
let run: ProcessRun;

beforeAll(async () => {
  await ensureBuilt();
  base = mkdtempSync(join(tmpdir(), "airlock-pi-pkg-"));
  ws = join(base, "ws");
  mkdirSync(join(ws, "important"), { recursive: true });
  writeFileSync(join(ws, "important/keep.txt"), "do not delete\n");
  sealed = sealedHome(ECHO_YES_RM_NO);
  model = await startModelServer([{ toolCalls: [{ name: "bash", input: { command: "rm -rf important" } }] }]);
  agentDir = join(base, "agent");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(
    join(agentDir, "models.json"),
    JSON.stringify({
      providers: {
        scripted: {
          baseUrl: `${model.url}/v1`,
          api: "openai-completions",
          apiKey: "dummy-key",
          models: [{ id: "scripted-model" }],
        },
      },
    }),
  );
  const env = {
    ...sealed.env,
    PI_CODING_AGENT_DIR: agentDir,
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
  };
  install = await runToEnd(NODE, [PI_CLI, "install", ROOT], ws, env);
  // No -e: the extension must come from the installed package.
  run = await runToEnd(
    NODE,
    [
      PI_CLI,
      "--print",
      "--no-session",
      "--provider",
      "scripted",
      "--model",
      "scripted-model",
      "Delete the important folder.",
    ],
    ws,
    env,
  );
}, 180_000);

afterAll(async () => {
  await model?.close();
  sealed?.cleanup();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("Airlock as a Pi package", () => {
  it("package.json declares the extension in a pi manifest and carries the pi-package keyword", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      keywords: string[];
      pi: { extensions: string[] };
    };
    expect(pkg.keywords).toContain("pi-package");
    expect(pkg.pi.extensions).toEqual(["./dist/companion/adapters/pi/extension.js"]);
    for (const path of pkg.pi.extensions) expect(existsSync(join(ROOT, path))).toBe(true);
  });

  it("pi install takes the checkout as a package", () => {
    expect(install.code, install.stderr + install.stdout).toBe(0);
    // Pi records a local package as a path relative to its settings when it can (so it depends on where the
    // checkout and the temp dir are): resolved from there, it must name this checkout.
    const settings = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")) as {
      packages: string[];
    };
    expect(settings.packages.map((p) => resolve(agentDir, p))).toContain(resolve(ROOT));
  });

  it("Pi loads the extension from the package: the rm never ran and the model got the policy's reason", () => {
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(ws, "important/keep.txt"))).toBe(true);
    const denied = model.toolResults()[0];
    expect(denied?.text).toMatch(/Airlock denied this call by rule "No rm".*rm is not allowed here/);
  });
});
