// `airlock hook gemini|opencode|copilot --install/--uninstall` and `airlock init` with the three on PATH: the files each
// agent reads, the user's own entries kept, re-installing never duplicates, uninstalling removes only Airlock's.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runAirlock, type Sandbox, sandbox } from "./support/sandbox.ts";

let box: Sandbox;

beforeAll(async () => {
  await ensureBuilt();
  box = sandbox();
}, 180_000);
afterAll(() => box.cleanup());

const read = (path: string) => JSON.parse(readFileSync(path, "utf8"));

describe("airlock hook gemini --install", () => {
  it("merges into settings.json beside the user's own hook, once, and --uninstall leaves the user's", async () => {
    const settings = join(box.home, ".gemini/settings.json");
    mkdirSync(join(box.home, ".gemini"), { recursive: true });
    const mine = { matcher: "write_file", hooks: [{ type: "command", command: "my-check" }] };
    writeFileSync(settings, JSON.stringify({ general: { vimMode: true }, hooks: { BeforeTool: [mine] } }));
    expect((await runAirlock(["hook", "gemini", "--install"], box.env)).code).toBe(0);
    expect((await runAirlock(["hook", "gemini", "--install"], box.env)).code).toBe(0);
    const installed = read(settings);
    expect(installed.general).toEqual({ vimMode: true });
    expect(installed.hooks.BeforeTool).toHaveLength(2);
    expect(installed.hooks.BeforeTool[0]).toEqual(mine);
    expect(installed.hooks.BeforeAgent[0].hooks[0].command).toMatch(/hook gemini$/);
    expect((await runAirlock(["hook", "gemini", "--uninstall"], box.env)).code).toBe(0);
    expect(read(settings).hooks).toEqual({ BeforeTool: [mine] });
  });
});

describe("airlock hook opencode --install", () => {
  it("writes Airlock's plugin module, and --uninstall deletes it", async () => {
    const env = { ...box.env, XDG_CONFIG_HOME: join(box.home, "xdg") };
    const r = await runAirlock(["hook", "opencode", "--install", "--json"], env);
    expect(r.code, r.stderr).toBe(0);
    const path = join(box.home, "xdg/opencode/plugin/airlock.js");
    expect(JSON.parse(r.stdout).path).toBe(path);
    // The module parses as JavaScript and exports the plugin.
    const mod = (await import(path)) as { AirlockPlugin?: unknown };
    expect(typeof mod.AirlockPlugin).toBe("function");
    expect((await runAirlock(["hook", "opencode", "--uninstall"], env)).code).toBe(0);
    expect(existsSync(path)).toBe(false);
  });
});

describe("airlock hook copilot --install", () => {
  it("writes its own hooks file and refuses --project", async () => {
    const env = { ...box.env, COPILOT_HOME: join(box.home, "cp") };
    expect((await runAirlock(["hook", "copilot", "--install"], env)).code).toBe(0);
    const file = read(join(box.home, "cp/hooks/airlock.json"));
    expect(Object.keys(file.hooks)).toEqual([
      "preToolUse",
      "userPromptSubmitted",
      "sessionStart",
      "sessionEnd",
    ]);
    const project = await runAirlock(["hook", "copilot", "--install", "--project"], env);
    expect(project.code).toBe(2);
    expect(project.stderr).toMatch(/no --project/);
  });
});

describe("airlock init", () => {
  it("finds Gemini CLI, OpenCode and Copilot CLI on PATH and installs each one's gate", async () => {
    const home = join(box.dir, "init-home");
    const bin = join(box.dir, "bin");
    mkdirSync(bin, { recursive: true });
    for (const name of ["gemini", "opencode", "copilot"]) {
      writeFileSync(join(bin, name), "#!/bin/sh\nexit 0\n");
      chmodSync(join(bin, name), 0o755);
    }
    const env = {
      ...box.env,
      HOME: home,
      AIRLOCK_HOME: join(home, ".airlock"),
      PATH: bin,
      XDG_CONFIG_HOME: join(home, ".config"),
    };
    const r = await runAirlock(["init", "--yes", "--json"], env);
    const agents = (JSON.parse(r.stdout) as { agents: { agent: string; installed: boolean }[] }).agents;
    for (const name of ["gemini", "opencode", "copilot"])
      expect(agents.find((a) => a.agent === name)).toMatchObject({ installed: true });
    expect(existsSync(join(home, ".gemini/settings.json"))).toBe(true);
    expect(existsSync(join(home, ".config/opencode/plugin/airlock.js"))).toBe(true);
    expect(existsSync(join(home, ".copilot/hooks/airlock.json"))).toBe(true);
  });
});
