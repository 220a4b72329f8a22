// Install truth (issue 24, item 5): Codex project trust written and checked; the user's own switches and comments
// kept; no double period in a Codex deny; init finds agents only on the user's PATH and says where; Pi under a Node
// too old to run it says exactly what to do; doctor resolves Pi's relative package path and says what no policy means.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { codexReason } from "../../../src/companion/adapters/codex/hook.ts";
import { installCodexHooks } from "../../../src/companion/adapters/codex/install.ts";
import { trailingComment } from "../../../src/companion/adapters/codex/trust.ts";
import { PACKAGE_ROOT } from "../../../src/companion/cli/invocation.ts";
import { isThisPiPackage } from "../../../src/companion/commands/doctor-integrations.ts";
import { isNpmBinDir } from "../../../src/companion/commands/pi-install.ts";
import { BIN, ensureBuilt, runAirlock, type Sandbox, sandbox } from "./support/sandbox.ts";

let box: Sandbox;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  await ensureBuilt();
}, 300_000);

beforeEach(() => {
  box = sandbox();
  env = { ...box.env, AIRLOCK_HOOK_COMMAND: "airlock", CODEX_HOME: join(box.home, ".codex") };
});
afterEach(() => box.cleanup());

const configPath = () => join(box.home, ".codex", "config.toml");
const writeConfig = (text: string) => {
  mkdirSync(join(box.home, ".codex"), { recursive: true });
  writeFileSync(configPath(), text);
};

describe("Codex install keeps the user's switches and comments, and trusts the project", () => {
  it("--project records the project's trust (Codex skips a project's hooks until it is trusted)", () => {
    const result = installCodexHooks("project", box.project, env);
    expect(result.notes).toEqual([]);
    expect(readFileSync(configPath(), "utf8")).toContain(
      `[projects.${JSON.stringify(box.project)}]\ntrust_level = "trusted"`,
    );
  });

  it("a project the user marked untrusted stays untrusted, and the installer says what that means", () => {
    writeConfig(`[projects.${JSON.stringify(box.project)}]\ntrust_level = "untrusted" # not this one\n`);
    const result = installCodexHooks("project", box.project, env);
    expect(readFileSync(configPath(), "utf8")).toContain('trust_level = "untrusted" # not this one');
    expect(result.notes).toEqual([
      expect.stringMatching(/marks .* as untrusted.*skips this project's hooks/),
    ]);
  });

  it("hooks = false is the user's switch: left as it is, and reported", () => {
    writeConfig("[features]\nhooks = false # off while I debug\n");
    const result = installCodexHooks("user", box.project, env);
    const text = readFileSync(configPath(), "utf8");
    expect(text).toContain("hooks = false # off while I debug");
    expect(text).not.toContain("hooks = true");
    expect(result.notes).toEqual([
      expect.stringMatching(/turns hooks off.*gates nothing.*change it to true/),
    ]);
    expect(result.trusted.length).toBeGreaterThan(0);
  });

  it("a rewritten line keeps its comment; a table header with a comment is found, not duplicated", () => {
    writeConfig("[features] # my features\nweb_search = true\n");
    installCodexHooks("user", box.project, env);
    const first = readFileSync(configPath(), "utf8");
    expect(first.match(/\[features\]/g)).toHaveLength(1);
    expect(first).toMatch(/\[features\] # my features\nhooks = true\nweb_search = true/);
    const commented = first.replace(/(trusted_hash = "sha256:[0-9a-f]{64}")/, "$1 # reviewed");
    writeFileSync(configPath(), commented.replace(/sha256:[0-9a-f]{64}/, "sha256:0000"));
    installCodexHooks("user", box.project, env);
    expect(readFileSync(configPath(), "utf8")).toMatch(/trusted_hash = "sha256:[0-9a-f]{64}" # reviewed/);
  });

  it("finds a comment only outside strings", () => {
    expect(trailingComment(' "a#b" # c')).toBe(" # c");
    expect(trailingComment(" 'x#y'")).toBe("");
    expect(trailingComment(' "esc \\" # still string" # real')).toBe(" # real");
  });

  it("a deny reason never ends in a period, since Codex adds its own", () => {
    expect(codexReason('Airlock denied this call by rule "No rm": rm is not allowed here.')).toBe(
      'Airlock denied this call by rule "No rm": rm is not allowed here',
    );
    expect(codexReason("no period")).toBe("no period");
  });
});

describe("airlock init finds agents only on the user's PATH", () => {
  /** An executable `name` in `dir` that prints `out`. */
  function fakeBin(dir: string, name: string, out: string): string {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\necho '${out}'\n`);
    chmodSync(path, 0o755);
    return path;
  }

  it("ignores a node_modules/.bin that npm put on PATH, and says where it found the rest", async () => {
    const npmBin = join(box.dir, "checkout", "node_modules", ".bin");
    fakeBin(npmBin, "claude", "2.1.330 (Claude Code)");
    fakeBin(npmBin, "pi", "0.1.0");
    const userBin = join(box.dir, "user-bin");
    const codex = fakeBin(userBin, "codex", "codex-cli 0.169.0");
    const r = await runAirlock(["init", "--yes", "--json"], {
      ...env,
      PATH: `${npmBin}:${userBin}:${box.env.PATH}`,
    });
    const agents = JSON.parse(r.stdout).agents as { agent: string; found: boolean; detail: string }[];
    expect(agents.find((a) => a.agent === "claude-code")).toMatchObject({
      found: false,
      detail: "not found on your PATH",
    });
    expect(agents.find((a) => a.agent === "pi")?.found).toBe(false);
    expect(agents.find((a) => a.agent === "codex")?.detail).toContain(`found ${codex}; hooks installed in`);
  });

  it("recognises npm's bin folders and nothing else", () => {
    expect(isNpmBinDir("/work/app/node_modules/.bin")).toBe(true);
    expect(isNpmBinDir("/work/app/node_modules/.bin/")).toBe(true);
    expect(isNpmBinDir("/usr/local/bin")).toBe(false);
    expect(isNpmBinDir("/home/me/.nvm/versions/node/v22.12.0/bin")).toBe(false);
  });

  it("Pi under a Node too old to run it: not run, and the exact step to take", async () => {
    // A Pi whose package needs a Node no machine has, reached through a link the way npm installs bins.
    const pkg = join(box.dir, "pi-pkg");
    const realBin = fakeBin(join(pkg, "dist"), "cli.js", "never run");
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "pi", engines: { node: ">=99.0.0" } }));
    const userBin = join(box.dir, "user-bin");
    mkdirSync(userBin, { recursive: true });
    symlinkSync(realBin, join(userBin, "pi"));
    const r = await runAirlock(["init", "--yes", "--json"], { ...env, PATH: `${userBin}:${box.env.PATH}` });
    const pi = (JSON.parse(r.stdout).agents as { agent: string; detail: string }[]).find(
      (a) => a.agent === "pi",
    );
    expect(pi?.detail).toMatch(
      /Pi needs Node >=99\.0\.0 .*the node on your PATH \(.+\) is v\d+\.\d+\.\d+, which cannot run Pi at all/,
    );
    expect(pi?.detail).toContain("Install Node 99.0.0 or newer");
    expect(pi?.detail).toContain(`then run: pi install ${PACKAGE_ROOT}`);
    expect(r.code).toBe(1);
  });
});

describe("airlock doctor", () => {
  it("resolves Pi's relative package path against Pi's agent dir, not the cwd", () => {
    const agentDir = join(box.home, ".pi", "agent");
    const stored = relative(agentDir, PACKAGE_ROOT);
    expect(stored.startsWith("..")).toBe(true);
    expect(isThisPiPackage(stored, agentDir, box.home)).toBe(true);
    expect(isThisPiPackage(`local:${PACKAGE_ROOT}`, agentDir, box.home)).toBe(true);
    expect(isThisPiPackage("npm:agent-airlock@0.1.0", agentDir, box.home)).toBe(true);
    expect(isThisPiPackage("npm:airlock", agentDir, box.home)).toBe(false);
    expect(isThisPiPackage("../elsewhere", agentDir, box.home)).toBe(false);
  });

  it("says Pi is gated after a correct install, run from any directory", async () => {
    const agentDir = join(box.home, ".pi", "agent");
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(
      join(agentDir, "settings.json"),
      JSON.stringify({ packages: [relative(agentDir, PACKAGE_ROOT)] }),
    );
    const r = await runAirlock(["doctor", "--json"], env);
    const pi = (JSON.parse(r.stdout) as { check: string; status: string }[]).find(
      (c) => c.check === "pi package",
    );
    expect(pi).toMatchObject({ status: "ok" });
  });

  it("with no policy file, says every call is denied instead of ok", async () => {
    const r = await runAirlock(["doctor", "--json"], env);
    const policy = (JSON.parse(r.stdout) as { check: string; status: string; detail: string }[]).find(
      (c) => c.check === "policy",
    );
    expect(policy).toMatchObject({
      status: "warn",
      detail: expect.stringMatching(/every call is denied.* init$/),
    });
  });

  it("fails a project install whose project Codex does not trust, and says how to fix it", async () => {
    installCodexHooks("project", box.project, env);
    const text = readFileSync(configPath(), "utf8");
    writeFileSync(configPath(), text.replace('trust_level = "trusted"', 'trust_level = "untrusted"'));
    const r = spawnSync(process.execPath, [BIN, "doctor", "--json"], {
      cwd: box.project,
      env,
      encoding: "utf8",
    });
    const codex = (JSON.parse(r.stdout) as { check: string; status: string; detail: string }[]).find(
      (c) => c.check === "codex hooks",
    );
    expect(codex).toMatchObject({ status: "fail" });
    expect(codex?.detail).toMatch(
      /does not trust this project .*trust_level is "untrusted".*hook codex --install --project/,
    );
  });
});
