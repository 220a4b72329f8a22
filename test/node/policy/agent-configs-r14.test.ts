// Red team round 14 (r14-s01): other coding agents' project configuration starts programs when that agent
// opens the folder — MCP servers (`.kiro/settings/mcp.json`, `.amazonq/mcp.json`, `.roo/mcp.json`,
// `.kilocode/mcp.json`, `.qwen/settings.json`), hooks (`.kiro/hooks/`, `.clinerules/hooks/`), a session's
// setup script (`.openhands/setup.sh`) or a lint command run after every edit (`.aider.conf.yml`) — yet
// writing them was allowed while `.claude/` or `.cursor/` ask. Writing one is running code later.
import { describe, expect, it } from "vitest";
import { isProtectedWritePath } from "../../../src/policy/secret-paths.ts";
import { CWD, call } from "./helpers.ts";
import { AUTONOMOUS, BALANCED } from "./shell/policies.ts";

const STARTS_PROGRAMS = [
  ".kiro/settings/mcp.json",
  ".kiro/hooks/a.kiro.hook",
  ".amazonq/mcp.json",
  ".amazonq/default.json",
  ".roo/mcp.json",
  ".kilocode/mcp.json",
  ".kilo/kilo.jsonc",
  "kilo.jsonc",
  ".qwen/settings.json",
  ".openhands/setup.sh",
  ".clinerules/hooks/PreToolUse",
  ".aider.conf.yml",
  // Round 21 (s21-01).
  ".junie/mcp/mcp.json",
  ".trae/mcp.json",
  ".augment/settings.json",
  ".goose/config.yaml",
];

describe("other coding agents' configuration that starts programs", () => {
  it("writing it is a protected write, which the starters do not allow", () => {
    for (const p of STARTS_PROGRAMS) {
      expect(isProtectedWritePath(p), p).toBe(true);
      for (const policy of [BALANCED, AUTONOMOUS])
        expect(call(policy, "write", { file_path: `${CWD}/${p}`, content: "{}" }).action, p).not.toBe(
          "allow",
        );
    }
  });

  it("their rules and hints, which are text to the model, stay writable", () => {
    for (const p of [
      ".clinerules/style.md",
      ".goosehints",
      ".junie/guidelines.md",
      "src/kiro.ts",
      "docs/roo.md",
    ]) {
      expect(isProtectedWritePath(p), p).toBe(false);
      expect(call(AUTONOMOUS, "write", { file_path: `${CWD}/${p}`, content: "x" }).action, p).toBe("allow");
    }
  });
});
