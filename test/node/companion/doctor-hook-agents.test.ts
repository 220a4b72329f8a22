// `airlock doctor` for Gemini CLI, OpenCode and Copilot CLI: installed by the real installers into a private home,
// then checked: ok when the hook is there and runs, fail when it is missing, runs a gone path or is turned off, warn
// when it is doubled, untrusted (Gemini) or the agent is here but not gated.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installCopilotHooks } from "../../../src/companion/adapters/copilot/install.ts";
import { installGeminiHooks } from "../../../src/companion/adapters/gemini/install.ts";
import { installOpenCodePlugin } from "../../../src/companion/adapters/opencode/install.ts";
import { geminiTrusts, hookAgentChecks } from "../../../src/companion/commands/doctor-hook-agents.ts";

let dir: string;
let project: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "airlock-doctor-agents-"));
  project = join(dir, "project");
  mkdirSync(project, { recursive: true });
  env = { HOME: join(dir, "home"), AIRLOCK_HOOK_COMMAND: `${process.execPath} ${join(dir, "airlock.cjs")}` };
  writeFileSync(join(dir, "airlock.cjs"), "");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const checks = (name: string) => hookAgentChecks(project, env, "airlock").filter((c) => c.check === name);
const trust = (entries: Record<string, string>) => {
  mkdirSync(join(dir, "home", ".gemini"), { recursive: true });
  writeFileSync(join(dir, "home", ".gemini", "trustedFolders.json"), JSON.stringify(entries));
};

describe("doctor: Gemini CLI", () => {
  it("nothing to say without Gemini; a warn with the install command when ~/.gemini exists without the hook", () => {
    expect(checks("gemini hooks")).toEqual([]);
    mkdirSync(join(dir, "home", ".gemini"), { recursive: true });
    expect(checks("gemini hooks")).toEqual([
      expect.objectContaining({
        status: "warn",
        detail: expect.stringContaining("airlock hook gemini --install"),
      }),
    ]);
  });

  it("ok when installed in a trusted folder; warn when the folder is not trusted (Gemini runs no hook there)", () => {
    installGeminiHooks("user", project, env);
    trust({ [project]: "TRUST_FOLDER" });
    expect(checks("gemini hooks")).toEqual([expect.objectContaining({ status: "ok" })]);
    trust({ [join(project, "elsewhere")]: "TRUST_FOLDER" });
    expect(checks("gemini hooks")).toEqual([
      expect.objectContaining({ status: "warn", detail: expect.stringContaining("trust") }),
    ]);
  });

  it("fails when hooksConfig.enabled is false in either settings file", () => {
    installGeminiHooks("user", project, env);
    trust({ [project]: "TRUST_FOLDER" });
    const projectSettings = join(project, ".gemini", "settings.json");
    mkdirSync(dirname(projectSettings), { recursive: true });
    writeFileSync(projectSettings, JSON.stringify({ hooksConfig: { enabled: false } }));
    expect(checks("gemini hooks")).toEqual([
      expect.objectContaining({ status: "fail", detail: expect.stringContaining("hooksConfig.enabled") }),
    ]);
  });

  it("fails when the hook's command no longer exists", () => {
    installGeminiHooks("user", project, env);
    trust({ [project]: "TRUST_FOLDER" });
    rmSync(join(dir, "airlock.cjs"));
    expect(checks("gemini hooks")).toEqual([
      expect.objectContaining({ status: "fail", detail: expect.stringContaining("does not exist") }),
    ]);
  });

  it("trust: the deepest entry wins, TRUST_PARENT trusts the parent's tree", () => {
    trust({ [dir]: "TRUST_FOLDER", [project]: "DO_NOT_TRUST" });
    expect(geminiTrusts(project, env)).toBe(false);
    trust({ [join(project, "x")]: "TRUST_PARENT" });
    expect(geminiTrusts(join(project, "sub"), env)).toBe(true);
  });
});

describe("doctor: OpenCode", () => {
  it("ok when the plugin is installed; fail when edited into something else; warn when in both folders", () => {
    const user = installOpenCodePlugin("user", project, env);
    expect(checks("opencode plugin")).toEqual([expect.objectContaining({ status: "ok" })]);
    installOpenCodePlugin("project", project, env);
    expect(checks("opencode plugin").map((c) => c.status)).toEqual(["ok", "ok", "warn"]);
    writeFileSync(
      user.path,
      readFileSync(user.path, "utf8").replace(/^const COMMAND = .*$/m, 'const COMMAND = "true";'),
    );
    expect(checks("opencode plugin")[0]).toMatchObject({ status: "fail" });
  });
});

describe("doctor: Copilot CLI", () => {
  it("ok when installed; warn when another hooks file runs Airlock too; fail when preToolUse is gone", () => {
    const installed = installCopilotHooks(env);
    expect(checks("copilot hooks")).toEqual([expect.objectContaining({ status: "ok" })]);
    writeFileSync(join(dirname(installed.path), "old-airlock.json"), readFileSync(installed.path, "utf8"));
    expect(checks("copilot hooks")).toEqual([
      expect.objectContaining({ status: "warn", detail: expect.stringContaining("twice") }),
    ]);
    writeFileSync(installed.path, JSON.stringify({ version: 1, hooks: {} }));
    expect(checks("copilot hooks")).toEqual([
      expect.objectContaining({ status: "fail", detail: expect.stringContaining("preToolUse") }),
    ]);
  });
});
