// The hook configurations' reading (policy/hook-runs.ts), as properties: it never throws on any text, a
// config that does not parse is read as one command (so nothing it names is lost), and a path a hook command
// names, in any of the spellings the configs use, is among the words it finds.

import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commandsOf, commandWords, HOOK_CONFIGS } from "../../../src/policy/hook-runs.ts";

const ROOT = "/w/proj";
const VARS = new Map([
  ["CLAUDE_PROJECT_DIR", ROOT],
  ["workspaceFolder", ROOT],
  ["HOME", "/home/u"],
]);

const segment = fc.stringMatching(/^[a-z][a-z0-9_-]{0,7}$/);
const relPath = fc
  .tuple(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.constantFrom(".sh", ".mjs", ".py", ""))
  .map(([segs, ext]) => `${segs.join("/")}${ext}`);

/** Every word the config's commands hold, each a path resolved against the project as the runner does. */
function named(configPath: string, text: string): string[] {
  const config = HOOK_CONFIGS.find((c) => c.path === configPath);
  if (config === undefined) throw new Error(configPath);
  return commandsOf(config, text).flatMap((c) => commandWords(c, VARS).map((w) => resolve(ROOT, w)));
}

/** The spellings a command uses for a project file. */
const spelled = fc.constantFrom(
  (p: string) => `bash ${p}`,
  (p: string) => `./${p} --flag`,
  (p: string) => `"$CLAUDE_PROJECT_DIR"/${p}`,
  (p: string) => `cd "$CLAUDE_PROJECT_DIR" && node '${p}' && echo ok`,
  (p: string) => `X=${p} sh -c true`,
  (p: string) => `python3 ${p}; exit 0`,
  (p: string) => `bash ${p} >> logs/hook.log 2>&1`,
);

describe("hook configurations are read totally", () => {
  it("never throws, for any config and any text", () => {
    fc.assert(
      fc.property(fc.constantFrom(...HOOK_CONFIGS), fc.string({ maxLength: 400 }), (config, text) => {
        const commands = commandsOf(config, text);
        for (const c of commands) expect(() => commandWords(c, VARS)).not.toThrow();
      }),
      { numRuns: 400 },
    );
  });

  it("an output redirection's target is written, not run: it is not among the words", () => {
    expect(commandWords("sh scripts/a.sh >> logs/hook.log 2>&1 >/dev/null &> out.txt", VARS)).toEqual([
      "sh",
      "scripts/a.sh",
    ]);
  });

  it("a JSON config that does not parse is one command: every path its text names is kept", () => {
    fc.assert(
      fc.property(relPath, fc.string({ maxLength: 60 }), (path, noise) => {
        const text = `{ // ${noise.replace(/\s/g, "")}\n "hooks": { "command": "bash ${path}" `;
        expect(named(".claude/settings.json", text)).toContain(`${ROOT}/${path}`);
      }),
      { numRuns: 200 },
    );
  });

  it("a hook command's project file, in any spelling, is found in every JSON config", () => {
    const jsonConfigs = [".claude/settings.json", ".gemini/settings.json", ".mcp.json", ".cursor/hooks.json"];
    fc.assert(
      fc.property(fc.constantFrom(...jsonConfigs), relPath, spelled, (configPath, path, spell) => {
        const text = JSON.stringify({
          hooks: { Any: [{ hooks: [{ type: "command", command: spell(path) }] }] },
        });
        expect(named(configPath, text)).toContain(`${ROOT}/${path}`);
      }),
      { numRuns: 300 },
    );
  });

  it("pre-commit's local entries and VS Code's folderOpen tasks are found; others are not run unasked", () => {
    fc.assert(
      fc.property(relPath, fc.boolean(), (path, local) => {
        const yaml = `repos:\n  - repo: ${local ? "local" : "https://x/y"}\n    hooks:\n      - id: a\n        entry: ${path}\n`;
        expect(named(".pre-commit-config.yaml", yaml).includes(`${ROOT}/${path}`)).toBe(local);
        const task = {
          label: "a",
          command: `./${path}`,
          runOptions: { runOn: local ? "folderOpen" : "default" },
        };
        const tasks = JSON.stringify({ version: "2.0.0", tasks: [task] });
        expect(named(".vscode/tasks.json", tasks).includes(`${ROOT}/${path}`)).toBe(local);
      }),
      { numRuns: 200 },
    );
  });
});
