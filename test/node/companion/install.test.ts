// `--install`: merges Airlock's hook entries into Claude Code / Codex hook files without clobbering others.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installClaudeHooks } from "../../../src/companion/adapters/claude-code/install.ts";
import { installCodexHooks } from "../../../src/companion/adapters/codex/install.ts";

let home: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "airlock-install-"));
  env = { HOME: home, AIRLOCK_HOOK_COMMAND: "airlock", AIRLOCK_PROMPT_TIMEOUT_MS: "30000" };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

describe("airlock hook claude-code --install", () => {
  it("writes PreToolUse, PermissionRequest, UserPromptSubmit, SessionEnd and SessionStart with a timeout above the prompt timeout", () => {
    const result = installClaudeHooks("user", home, env);
    expect(result.path).toBe(join(home, ".claude", "settings.json"));
    expect(result.timeoutSeconds).toBeGreaterThan(30);
    expect(readJson(result.path)).toEqual({
      hooks: {
        PreToolUse: [
          { matcher: "*", hooks: [{ type: "command", command: "airlock hook claude-code", timeout: 60 }] },
        ],
        PermissionRequest: [
          { matcher: "*", hooks: [{ type: "command", command: "airlock hook claude-code", timeout: 60 }] },
        ],
        UserPromptSubmit: [
          { hooks: [{ type: "command", command: "airlock hook claude-code", timeout: 60 }] },
        ],
        SessionEnd: [{ hooks: [{ type: "command", command: "airlock hook claude-code", timeout: 60 }] }],
        // Idle warming for precognition while the person types the first prompt.
        SessionStart: [{ hooks: [{ type: "command", command: "airlock hook claude-code", timeout: 60 }] }],
      },
    });
  });

  it("keeps other settings and other hooks, and does not duplicate itself on a re-run", () => {
    const path = join(home, ".claude", "settings.json");
    mkdirSync(join(home, ".claude"));
    const other = { type: "command", command: "python3 check.py", timeout: 5 };
    writeFileSync(
      path,
      JSON.stringify({
        model: "opus",
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [other] }], Stop: [{ hooks: [other] }] },
      }),
    );
    installClaudeHooks("user", home, env);
    installClaudeHooks("user", home, { ...env, AIRLOCK_PROMPT_TIMEOUT_MS: "60000" });
    const written = readJson(path) as {
      model: string;
      hooks: Record<string, { matcher?: string; hooks: unknown[] }[]>;
    };
    expect(written.model).toBe("opus");
    expect(written.hooks.Stop).toEqual([{ hooks: [other] }]);
    expect(written.hooks.PreToolUse).toEqual([
      { matcher: "Bash", hooks: [other] },
      { matcher: "*", hooks: [{ type: "command", command: "airlock hook claude-code", timeout: 90 }] },
    ]);
    expect(written.hooks.UserPromptSubmit).toHaveLength(1);
  });

  it("--uninstall removes only Airlock's entries", () => {
    const path = join(home, ".claude", "settings.json");
    const other = { type: "command", command: "echo hi" };
    installClaudeHooks("user", home, env);
    const before = readJson(path) as { hooks: Record<string, unknown[]> };
    before.hooks.PreToolUse?.push({ matcher: "Edit", hooks: [other] });
    writeFileSync(path, JSON.stringify(before));
    installClaudeHooks("user", home, env, { remove: true });
    expect(readJson(path)).toEqual({ hooks: { PreToolUse: [{ matcher: "Edit", hooks: [other] }] } });
  });

  it("refuses to touch a settings file that is not JSON", () => {
    const path = join(home, ".claude", "settings.json");
    installClaudeHooks("user", home, env);
    writeFileSync(path, "{ not json");
    expect(() => installClaudeHooks("user", home, env)).toThrow(/not valid JSON/);
    expect(readFileSync(path, "utf8")).toBe("{ not json");
  });

  it("--project writes .claude/settings.json in the project", () => {
    const project = join(home, "proj");
    expect(installClaudeHooks("project", project, env).path).toBe(join(project, ".claude", "settings.json"));
    expect(installClaudeHooks("local", project, env).path).toBe(
      join(project, ".claude", "settings.local.json"),
    );
  });
});

describe("airlock hook codex --install", () => {
  it("writes ~/.codex/hooks.json ($CODEX_HOME honoured)", () => {
    const result = installCodexHooks("user", home, env);
    expect(result.path).toBe(join(home, ".codex", "hooks.json"));
    expect(readJson(result.path)).toMatchObject({
      hooks: {
        PreToolUse: [
          { matcher: "*", hooks: [{ type: "command", command: "airlock hook codex", timeout: 60 }] },
        ],
        PermissionRequest: [{ matcher: "*" }],
        UserPromptSubmit: [{ hooks: [{ command: "airlock hook codex" }] }],
      },
    });
    const codexHome = join(home, "codex-home");
    expect(installCodexHooks("user", home, { ...env, CODEX_HOME: codexHome }).path).toBe(
      join(codexHome, "hooks.json"),
    );
  });

  it("leaves Claude Code's entries alone in a shared file", () => {
    const path = join(home, ".codex", "hooks.json");
    mkdirSync(join(home, ".codex"));
    writeFileSync(
      path,
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: "*", hooks: [{ command: "airlock hook claude-code" }] }] },
      }),
    );
    installCodexHooks("user", home, env);
    const written = readJson(path) as { hooks: { PreToolUse: unknown[] } };
    expect(written.hooks.PreToolUse).toHaveLength(2);
  });
});
