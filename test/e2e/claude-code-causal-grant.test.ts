// Causal grants with the real `claude -p`, a real local edge and a phone answering through the API: `npm test`
// allowed "always" runs again with no card; after the agent edits the `test` script the next `npm test` asks
// again and the card shows the changed script line; after an edit of a source file it runs with no card.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, ensureBuilt, runAirlock, type Sandbox, sandbox } from "../node/companion/support/sandbox.ts";
import { NODE, ROOT } from "../support/airlock-env.ts";
import { claudeEnv } from "../support/claude-env.ts";
import { type ModelServer, startModelServer, type ToolResultSeen } from "../support/model-server.ts";
import { type ProcessRun, runToEnd } from "../support/run-process.ts";
import { answerCards, type Card } from "./support/agent-phone.ts";
import { type Edge, startEdge } from "./support/edge.ts";

const CLAUDE = join(ROOT, "node_modules/.bin/claude");
const HOOK = `${NODE} ${BIN} hook claude-code`;

// Reads and edits inside the project run; every command asks.
const POLICY = `version: 1
default_action: ask
rules:
  - name: Files in the project
    condition: tool in ["read", "write", "edit"] && path.startsWith(cwd)
    action: allow
`;

const PKG = (test: string) =>
  `${JSON.stringify({ name: "demo", private: true, scripts: { test } }, null, 2)}\n`;
const OLD_SCRIPT = "node test.js";
const NEW_SCRIPT = "node test.js && echo script-changed";

let edge: Edge;
let box: Sandbox;
let phone: string;
let model: ModelServer;
let run: ProcessRun;
let results: ToolResultSeen[];
const cards: Card[] = [];

/** The phone: "Allow always" on `npm test`, "Allow once" on anything else, until the agent has finished. */
const answerUntil = (done: Promise<unknown>) =>
  answerCards(edge, phone, cards, done, (summary) => (summary.includes("npm test") ? "always" : "once"));

const npmTestCards = () => cards.filter((c) => c.calls?.some((call) => call.summary.includes("npm test")));

beforeAll(async () => {
  await ensureBuilt();
  edge = await startEdge();
  box = sandbox({ AIRLOCK_PROMPT_TIMEOUT_MS: "60000", AIRLOCK_NO_DAEMON: "1" });
  box.writePolicy(POLICY);
  const paired = await runAirlock(["pair", await edge.newCode(), "--server", edge.base, "--json"], box.env);
  expect(paired.code).toBe(0);
  phone = (await edge.pairDevice("browser", "e2e phone")).token;

  const ws = box.project;
  execFileSync("git", ["init", "-q", ws]);
  writeFileSync(join(ws, "package.json"), PKG(OLD_SCRIPT));
  writeFileSync(join(ws, "test.js"), 'console.log("tests-passed", require("./src/x.js").x);\n');
  mkdirSync(join(ws, "src"));
  writeFileSync(join(ws, "src/x.js"), "exports.x = 1;\n");

  const bash = (command: string) => ({
    toolCalls: [{ name: "Bash", input: { command, description: "run the tests" } }],
  });
  const read = (file: string) => ({ toolCalls: [{ name: "Read", input: { file_path: join(ws, file) } }] });
  const edit = (file: string, from: string, to: string) => ({
    toolCalls: [{ name: "Edit", input: { file_path: join(ws, file), old_string: from, new_string: to } }],
  });
  model = await startModelServer([
    bash("npm test"), // 0: asks; the phone says "Allow always"
    bash("npm test"), // 1: the grant covers it: no card
    read("package.json"), // 2
    edit("package.json", `"test": "${OLD_SCRIPT}"`, `"test": "${NEW_SCRIPT}"`), // 3: the agent edits the script
    bash("npm test"), // 4: asks again, the card shows the changed line; "Allow always" again
    read("src/x.js"), // 5
    edit("src/x.js", "exports.x = 1;", "exports.x = 2;"), // 6: a source edit
    bash("npm test"), // 7: no card
    { text: "done" },
  ]);
  const configDir = join(box.dir, "claude-config");
  mkdirSync(configDir, { recursive: true });
  const hook = [{ matcher: "*", hooks: [{ type: "command", command: HOOK }] }];
  writeFileSync(
    join(configDir, "settings.json"),
    JSON.stringify({
      // Claude Code's own check allows these, so each call's fate is Airlock's (the stricter of the two).
      permissions: { allow: ["Bash(npm test)", "Read", "Edit"] },
      hooks: { PreToolUse: hook, PermissionRequest: hook },
    }),
  );
  const agent = runToEnd(
    CLAUDE,
    ["-p", "Run the tests, change the test script, run them again.", "--output-format", "json"],
    ws,
    {
      ...box.env,
      ...claudeEnv(model.url, configDir),
    },
  );
  await answerUntil(agent);
  run = await agent;
  results = model.toolResults();
}, 300_000);

afterAll(async () => {
  await model?.close();
  await edge?.stop();
  box?.cleanup();
});

describe("causal grants with Claude Code", () => {
  it("the run completes and every scripted call got a tool result", () => {
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(results.map((r) => r.isError)).toEqual([false, false, false, false, false, false, false, false]);
  });

  it("npm test asked once, ran, and ran again under the grant with no card", () => {
    expect(results[0]?.text).toContain("tests-passed 1");
    expect(results[1]?.text).toContain("tests-passed 1");
    expect(npmTestCards()[0]?.justification).not.toContain("changed since");
  });

  it("after the agent changed the test script, npm test asked again and the card shows the changed line", () => {
    expect(readFileSync(join(box.project, "package.json"), "utf8")).toContain(NEW_SCRIPT);
    expect(npmTestCards()).toHaveLength(2);
    const second = npmTestCards()[1]?.justification ?? "";
    expect(second).toContain("what it runs changed since it was allowed always: the `test` script");
    expect(second).toContain(`- scripts.test: ${OLD_SCRIPT}`);
    expect(second).toContain(`+ scripts.test: ${NEW_SCRIPT}`);
    expect(results[4]?.text).toContain("script-changed");
  });

  it("after a source edit, npm test ran with no card (the grant is pinned to the script, not the sources)", () => {
    expect(results[7]?.text).toContain("tests-passed 2");
    expect(npmTestCards()).toHaveLength(2);
  });
});
