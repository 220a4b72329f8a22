// The judge reads every shell call as a fresh non-interactive bash (red team, round 17: `set -f` alone is
// allowed, and so is `cat x[y]` judged by its match `xy`; in ONE shell the two would open the link `x[y]`).
// That holds only while no agent keeps one shell across tool calls. The real Copilot CLI (with a reused
// `shellId`, too) and OpenCode from npm, offline against a scripted model, run a call that changes shell
// state and then one that looks at it: an upgrade that starts keeping state fails here, before the judge's
// assumption silently stops holding. Claude Code keeps only its cwd, which its hook reports (claude-code/hook.ts).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/airlock-env.ts";
import { type ScriptedTurn, startModelServer } from "../support/model-server.ts";
import { runToEnd } from "../support/run-process.ts";
import { OPENCODE, OPENCODE_MODEL, openCodeEnv, writeOpenCodeConfig } from "./support/opencode-offline.ts";

const COPILOT = join(ROOT, "node_modules/@github/copilot-linux-x64/copilot");

/** Changes every kind of state a later call could inherit: glob options, variables, functions, aliases, cwd. */
const CHANGE =
  "set -f; shopt -s nullglob; export AIRLOCK_MARK=kept; ff() { :; }; alias ll='echo aliased'; cd sub; echo changed";
/** What a later call sees: each line says whether the change carried over. */
const LOOK =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
  'echo "mark=${AIRLOCK_MARK:-none}"; echo "dir=${PWD##*/}"; echo "flags=$-"; shopt -q nullglob && echo nullglob=on; type ff >/dev/null 2>&1 && echo function=kept; cat x[y]';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "airlock-shell-state-"));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A workspace where `x[y]` is a link out and `xy` the plain file its glob matches. */
function workspace(name: string): string {
  const ws = join(root, name, "ws");
  mkdirSync(join(ws, "sub"), { recursive: true });
  writeFileSync(join(ws, "xy"), "plain file\n");
  writeFileSync(join(root, name, "outside.txt"), "OUTSIDE\n");
  symlinkSync(join(root, name, "outside.txt"), join(ws, "x[y]"));
  return ws;
}

/** The fresh-shell facts the judge relies on, read from the second call's output. */
function expectFresh(text: string | undefined): void {
  expect(text).toContain("mark=none");
  expect(text).toContain("dir=ws");
  expect(text).toMatch(/flags=[^\n]*c/);
  expect(text).not.toMatch(/flags=[^\n]*[if]/);
  expect(text).not.toContain("nullglob=on");
  expect(text).not.toContain("function=kept");
  expect(text).toContain("plain file");
  expect(text).not.toContain("OUTSIDE");
}

async function runScripted(
  turns: ScriptedTurn[],
  run: (url: string, ws: string) => ReturnType<typeof runToEnd>,
  ws: string,
) {
  const model = await startModelServer([...turns, { text: "done" }]);
  try {
    const done = await run(model.url, ws);
    return { done, results: model.toolResults() };
  } finally {
    await model.close();
  }
}

describe("no agent keeps shell state across tool calls", () => {
  it("Copilot CLI runs each bash call in a fresh bash, a reused shellId included", async () => {
    const ws = workspace("copilot");
    const home = join(root, "copilot", "home");
    const call = (command: string, shellId?: string) => ({
      toolCalls: [
        { name: "bash", input: { command, description: "state", ...(shellId ? { shellId } : {}) } },
      ],
    });
    const { done, results } = await runScripted(
      [call(CHANGE), call(LOOK), call(CHANGE, "s1"), call(LOOK, "s1")],
      (url) =>
        runToEnd(COPILOT, ["-p", "Check the shell.", "--output-format", "json", "--allow-all-tools"], ws, {
          ...process.env,
          PWD: ws,
          HOME: home,
          COPILOT_HOME: join(home, ".copilot"),
          COPILOT_OFFLINE: "true",
          COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
          COPILOT_PROVIDER_TYPE: "openai",
          COPILOT_PROVIDER_API_KEY: "dummy",
          COPILOT_MODEL: "gpt-4.1",
          COPILOT_AUTO_UPDATE: "false",
        }),
      ws,
    );
    expect(done.code, done.stderr).toBe(0);
    expect(results).toHaveLength(4);
    expect(results[0]?.text).toContain("changed");
    expectFresh(results[1]?.text);
    expect(results[2]?.text).toContain("changed");
    expectFresh(results[3]?.text);
  }, 180_000);

  it("OpenCode runs each bash call in a fresh bash", async () => {
    const ws = workspace("opencode");
    const home = join(root, "opencode", "home");
    const config = join(root, "opencode", "opencode.json");
    const call = (command: string) => ({
      toolCalls: [{ name: "bash", input: { command, description: "state" } }],
    });
    const { done, results } = await runScripted(
      [call(CHANGE), call(LOOK)],
      (url) => {
        writeOpenCodeConfig(config, url);
        return runToEnd(
          OPENCODE,
          ["run", "--format", "json", "--model", OPENCODE_MODEL, "Go."],
          ws,
          openCodeEnv(ws, home, config),
        );
      },
      ws,
    );
    expect(done.code, done.stderr).toBe(0);
    expect(results).toHaveLength(2);
    expect(results[0]?.text).toContain("changed");
    expectFresh(results[1]?.text);
  }, 180_000);
});
