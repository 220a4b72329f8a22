// The real Codex CLI (native binary) against a scripted local Responses-API model: after `airlock hook codex
// --install`, Codex calls the hook (its trust was recorded in config.toml as Codex's own /hooks review does), the model
// sees why a call was denied, including why an `ask` could not reach a person; `airlock doctor` checks that trust.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runAirlock, type Sandbox, sandbox } from "../node/companion/support/sandbox.ts";
import { type ResponsesServer, startResponsesServer } from "../support/responses-server.ts";
import { runToEnd } from "../support/run-process.ts";
import { ROOT } from "./support/edge.ts";

const CODEX = join(ROOT, "node_modules", ".bin", "codex");
const POLICY = `version: 1
default_action: ask
rules:
  - name: No rm
    condition: tool == "bash" && command.startsWith("rm")
    action: deny
    message: rm is not allowed here
  - name: Echo
    condition: tool == "bash" && command.startsWith("echo")
    action: allow
`;

let box: Sandbox;
let model: ResponsesServer;
let codexHome: string;

beforeAll(async () => {
  await ensureBuilt();
  model = await startResponsesServer([
    { commands: ["rm -rf important"] },
    { commands: ["make deploy"] },
    { commands: ["echo airlock-allowed"] },
    { text: "done" },
  ]);
  box = sandbox();
  box.writePolicy(POLICY);
  mkdirSync(join(box.project, "important"), { recursive: true });
  codexHome = join(box.home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  // The user's own config, with a comment Airlock's edit must keep.
  writeFileSync(
    join(codexHome, "config.toml"),
    `# my codex settings\nmodel = "test-model"\nmodel_provider = "local"\n\n[model_providers.local]\nname = "local"\nbase_url = "${model.url}"\nwire_api = "responses"\n`,
  );
}, 180_000);

afterAll(async () => {
  await model?.close();
  box?.cleanup();
});

interface Check {
  check: string;
  status: string;
  detail: string;
}

async function doctor(): Promise<Check[]> {
  const r = await runAirlock(["doctor", "--json"], { ...box.env, CODEX_HOME: codexHome }, "", 60_000);
  return JSON.parse(r.stdout) as Check[];
}

describe("Codex with Airlock's hooks", { timeout: 180_000 }, () => {
  it("--install records the hooks' trust in config.toml, keeping the user's settings", async () => {
    const r = await runAirlock(["hook", "codex", "--install"], { ...box.env, CODEX_HOME: codexHome });
    expect(r.code).toBe(0);
    // PreToolUse, PermissionRequest, UserPromptSubmit and SessionStart (precognition's idle warming).
    expect(r.stdout).toContain("trusted: 4 hook(s) recorded");
    const config = readFileSync(join(codexHome, "config.toml"), "utf8");
    expect(config).toContain("# my codex settings");
    expect(config).toContain('wire_api = "responses"');
    expect(config).toMatch(/\[features\]\nhooks = true/);
    expect(config.match(/trusted_hash = "sha256:[0-9a-f]{64}"/g)).toHaveLength(4);
    expect(config).toContain(":session_start:0:0");
    const codexCheck = (await doctor()).find((c) => c.check === "codex hooks");
    expect(codexCheck).toMatchObject({ status: "ok" });
  });

  it("a real codex run calls the hook: the model sees the deny reason, and why an ask reached no one", async () => {
    const env = { ...box.env, CODEX_HOME: codexHome, OPENAI_API_KEY: "dummy" };
    const run = await runToEnd(
      CODEX,
      ["exec", "--skip-git-repo-check", "clean up and deploy"],
      box.project,
      env,
    );
    expect(model.requests.length, run.stderr).toBeGreaterThanOrEqual(4);
    const outputs = model.outputs();
    expect(outputs.get("call_0_0")).toContain("rm is not allowed here");
    expect(outputs.get("call_1_0")).toMatch(/needs a person's approval, but this machine is not paired/);
    expect(outputs.get("call_2_0")).toContain("airlock-allowed");
  });

  it("doctor finds an untrusted hook and says how to fix it", async () => {
    const path = join(codexHome, "config.toml");
    const config = readFileSync(path, "utf8");
    writeFileSync(
      path,
      config.replace(/trusted_hash = "sha256:[0-9a-f]{64}"/, 'trusted_hash = "sha256:0000"'),
    );
    const check = (await doctor()).find((c) => c.check === "codex hooks");
    expect(check?.status).toBe("fail");
    expect(check?.detail).toMatch(
      /not trusted by Codex.*pre_tool_use:0:0 \(modified\).*hook codex --install/s,
    );
    writeFileSync(path, config.replace(/\[hooks\.state\.[^\n]+\ntrusted_hash = [^\n]+\n/g, ""));
    const none = (await doctor()).find((c) => c.check === "codex hooks");
    expect(none?.status).toBe("fail");
  });
});
