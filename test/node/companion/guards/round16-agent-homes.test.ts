// Never (red team, round 16): the environment put a coding agent's own configuration home (r16b-09:
// CLAUDE_CONFIG_DIR=$WS/tools/claude, where a real `claude -p` ran a SessionStart hook written to its
// settings.json) or Airlock's own home (r16b-10: AIRLOCK_HOME=$WS/tools/al, whose permissions.yaml the agent
// rewrote to allow `cat ~/.netrc`) inside the project, and writing there was an ordinary workspace edit.

import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { AUTONOMOUS, BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { gitWorkspace, judgeOnDisk, write } from "./disk-fixture.ts";
import { envJudge, expectAllowedClean, expectAsks } from "./env-judge.ts";

const { base, ws, home } = gitWorkspace("airlock-rt16-homes-", {
  "README.md": "# demo\n",
  "src/a.ts": "1\n",
  "tools/al/permissions.yaml": "version: 1\nrules: []\n",
  "tools/al/http-hook.json": '{"port":1,"secret":"s3cr3t"}\n',
});
afterAll(() => rmSync(base, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

const { bash, writeTool, readTool } = envJudge(ws, home, [CAUTIOUS, BALANCED, AUTONOMOUS]);

describe("r16b-09: an agent's configuration home named into the project", () => {
  const HOMES: readonly [string, string, string][] = [
    ["CLAUDE_CONFIG_DIR", "tools/claude", "tools/claude/settings.json"],
    ["CLAUDE_CONFIG_DIR", "tools/claude", "tools/claude/hooks/x.sh"],
    ["CODEX_HOME", "tools/codex", "tools/codex/config.toml"],
    ["OPENCODE_CONFIG", "tools/oc.json", "tools/oc.json"],
    ["OPENCODE_CONFIG_DIR", "tools/oc", "tools/oc/plugin/x.js"],
    ["PI_CODING_AGENT_DIR", "tools/pi", "tools/pi/extensions/x.ts"],
    ["COPILOT_HOME", "tools/copilot", "tools/copilot/hooks/x.json"],
    ["GEMINI_CLI_SYSTEM_SETTINGS_PATH", "tools/gemini.json", "tools/gemini.json"],
  ];

  it("writing there asks, by the Write tool and by a shell redirection; the same writes are allowed without it", () => {
    for (const [variable, named, target] of HOMES) {
      const env = { [variable]: join(ws, named) };
      expectAsks(writeTool(target, env), new RegExp(variable), `${variable}: write ${target}`);
      expectAsks(bash(`echo '{}' > ${target}`, env), new RegExp(variable), `${variable}: > ${target}`);
      expectAllowedClean(writeTool(target), `${target}, clean`);
    }
  });

  it("a write beside it stays allowed", () => {
    expectAllowedClean(writeTool("src/a.ts", { CLAUDE_CONFIG_DIR: join(ws, "tools/claude") }), "src/a.ts");
  });
});

describe("r16b-10: Airlock's own home inside the project", () => {
  const env = { AIRLOCK_HOME: join(ws, "tools/al") };

  it("writing its permissions.yaml asks, whoever names the home: the agent's environment or the judge's own", () => {
    const because = /Airlock's own home/;
    expectAsks(writeTool("tools/al/permissions.yaml", env), because, "write");
    expectAsks(bash("printf 'version: 1\\n' > tools/al/permissions.yaml", env), because, "shell write");
    expectAllowedClean(writeTool("tools/al/permissions.yaml"), "write, clean");
    // The hook runs in the agent's environment, the daemon in its own: the judging process's home counts too.
    vi.stubEnv("AIRLOCK_HOME", join(ws, "tools/al"));
    expectAsks(writeTool("tools/al/permissions.yaml"), because, "the judge's own home");
  });

  it("reading its files, or walking a tree that holds it, asks; other reads and walks stay allowed", () => {
    const because = /Airlock's own home/;
    expectAsks(readTool("tools/al/http-hook.json", env), because, "read");
    expectAsks(bash("cat tools/al/http-hook.json", env), because, "cat");
    expectAsks(bash("grep -r secret tools", env), because, "grep -r");
    expectAsks(bash("rg secret", env), because, "rg");
    expectAllowedClean(readTool("tools/al/http-hook.json"), "read, clean");
    expectAllowedClean(bash("grep -r secret src", env), "grep -r src");
    expectAllowedClean(readTool("src/a.ts", env), "read src/a.ts");
  });

  it("the default home under its secret name is left to the walk, which skips it (rg in a home workspace)", () => {
    write(join(home, ".airlock/permissions.yaml"), "version: 1\nrules: []\n");
    write(join(home, "notes.txt"), "hello\n");
    const disk = diskCheck({ env: { HOME: home } });
    const rg = judgeOnDisk(BALANCED, { tool: "bash", input: { command: "rg hello" }, cwd: home }, { disk });
    expect(rg.why).not.toMatch(/Airlock's own home/);
  });
});
