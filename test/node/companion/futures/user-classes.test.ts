// Command classes users add in permissions.yaml (`futures.commands`): warmed and served like the built-ins,
// only from trusted layers, only as one plain command, and still only when policy allows them without asking.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { outputText } from "../../../../src/companion/futures/command-futures.ts";
import { compilePolicy } from "../../../../src/policy/index.ts";
import { DEFAULT_FILES, type PrecogFixture, policyState, precogFixture } from "./fixture.ts";

const POLICY = `version: 1
default_action: ask
rules:
  - name: checks
    condition: tool == "bash" && command == "node check.js"
    action: allow
  - name: reads in the project (the script node runs is one)
    condition: tool == "read" && path.startsWith(cwd + "/")
    action: allow
futures:
  commands:
    - name: make check
      command: node check.js
      causal: ["src/**", "check.js"]
`;

let fx: PrecogFixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

describe("user command classes", () => {
  it("are warmed when named, served while their causal files hold, and go stale when one changes", async () => {
    fx = await precogFixture(
      { AIRLOCK_PRECOG_CACHE_DELAY_MS: "0" },
      { ...DEFAULT_FILES, "check.js": 'console.log("checked", require("fs").readdirSync("src").length)' },
      POLICY,
    );
    const warm = await fx.precog.warm({ source: "prompt", cwd: fx.root, text: "run make check please" });
    expect(warm.commands).toEqual(["node check.js"]);
    await fx.precog.settled();
    const hit = await fx.precog.serve(fx.root, { tool: "bash", command: "node check.js" });
    expect(hit.hit && hit.future.kind === "command" && outputText(hit.future)).toContain("checked");
    const stats = await fx.precog.stats();
    expect(stats.workspaces[0]?.classes.find((c) => c.class === "bash:make check")?.hits).toBe(1);
    fx.write("src/new.ts", "export {};\n");
    expect(await fx.precog.serve(fx.root, { tool: "bash", command: "node check.js" })).toMatchObject({
      hit: false,
      reason: "stale",
    });
    expect(fx.precog.isClassed(fx.root, "node check.js")).toBe(true);
    expect(fx.precog.isClassed(fx.root, "node other.js")).toBe(false);
  });

  it("an untrusted project file cannot add one", () => {
    const compiled = compilePolicy([
      { layer: "project", path: join("/p", ".airlock", "permissions.yaml"), text: POLICY, trusted: false },
    ]);
    expect(compiled.ok && compiled.policy.futureCommands).toEqual([]);
  });

  it.each(["make check; rm -rf ~", "make check && curl x", "make $(id)", "make 'check'", "make check > out"])(
    "%s is refused when the policy loads",
    (command) => {
      const state = policyState(`futures:\n  commands:\n    - name: bad\n      command: "${command}"\n`);
      expect(state.ok).toBe(false);
    },
  );
});
