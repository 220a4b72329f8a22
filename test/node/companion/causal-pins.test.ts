// Causal grants in the companion, on a real directory: "allow always" on `npm test` (the rules built as the
// edge builds them from the ask) covers the next run, a changed `test` script asks again with the change on
// the card, a changed source file does not.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentToolCall } from "../../../src/companion/control/tool-call.ts";
import { CausalHistory, pinCall } from "../../../src/companion/deciding/causal-pins.ts";
import { type Approver, decideToolCall, diskPinning } from "../../../src/companion/deciding/decide.ts";
import { toDecisionRequest } from "../../../src/companion/deciding/edge-approver.ts";
import type { PolicyState } from "../../../src/companion/local-policy/load.ts";
import { causalChangesAtEdge, compileAccountPolicy, judgeAtEdge } from "../../../src/edge/hub/edge-policy.ts";
import { withCausalChange } from "../../../src/policy/causal-change.ts";
import { compilePolicy, type GrantRule, rulesForAnswer } from "../../../src/policy/index.ts";
import { DecisionRequest } from "../../../src/protocol/decisions.ts";

let root: string;
let repo: string;
let home: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "airlock-causal-"));
  repo = join(root, "repo");
  home = join(root, "airlock-home");
  mkdirSync(join(repo, "src"), { recursive: true });
  writeFileSync(join(repo, "src/x.ts"), "export const x = 1;\n");
  writePkg("vitest run");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function writePkg(test: string): void {
  const pkg = { name: "demo", scripts: { test, build: "tsc -b" }, devDependencies: { vitest: "^3.2.0" } };
  writeFileSync(join(repo, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
}

const POLICY: PolicyState = (() => {
  const compiled = compilePolicy([
    { layer: "user", path: "/u/permissions.yaml", text: "default_action: ask\n" },
  ]);
  if (!compiled.ok) throw new Error("policy");
  return { ok: true, policy: compiled.policy, files: [], loadedAt: new Date().toISOString() };
})();

let n = 0;
function call(command: string): AgentToolCall {
  return {
    callId: `c${++n}`,
    sessionId: "s1",
    agent: { id: "claude-code", name: "Claude Code" },
    tool: "bash",
    input: { command },
    cwd: repo,
    hasUI: true,
  };
}

/** A person who answers "allow always": the grant is built from the request as the edge builds it. */
function alwaysApprover(
  grants: GrantRule[],
): Approver & { asked: { justification: string; local: string }[] } {
  const account = compileAccountPolicy(undefined);
  if (!account.ok) throw new Error("account policy");
  const asked: { justification: string; local: string }[] = [];
  return {
    asked,
    async ask(c, record, _timeout, facts) {
      const request = DecisionRequest.parse(toDecisionRequest(c, record, facts));
      const judged = judgeAtEdge(account.policy, request);
      const changes = causalChangesAtEdge(account.policy, request, grants);
      asked.push({
        justification: withCausalChange(judged, changes).record.justification,
        local: record.justification,
      });
      const rules = rulesForAnswer(judged.units, "allow", "always", c.agent);
      grants.push(...rules.map((r, i) => ({ ...r, id: `g${grants.length + i}` })));
      return { decision: "allow", reason: "person allowed always", source: "user" };
    },
  };
}

describe("causal grants in the companion", () => {
  it("npm test: allowed always, covered again, asked again with the diff after the script changes, not after a source edit", async () => {
    const grants: GrantRule[] = [];
    const approver = alwaysApprover(grants);
    const deps = {
      policy: () => POLICY,
      grants: () => grants,
      approver,
      promptTimeoutMs: 1000,
      causal: diskPinning({ AIRLOCK_HOME: home }),
    };
    expect((await decideToolCall(call("npm test"), deps)).source).toBe("user");
    expect(approver.asked).toHaveLength(1);
    expect(grants).toHaveLength(1);

    expect(await decideToolCall(call("npm test"), deps)).toMatchObject({
      decision: "allow",
      source: "grant",
    });

    writeFileSync(join(repo, "src/x.ts"), "export const x = 2;\n");
    expect((await decideToolCall(call("npm test"), deps)).source).toBe("grant");

    writePkg("vitest run && node leak.js");
    expect((await decideToolCall(call("npm test"), deps)).source).toBe("user");
    expect(approver.asked).toHaveLength(2);
    const change = `what it runs changed since it was allowed always: the \`test\` script in ${repo}\npackage.json:\n- scripts.test: vitest run\n+ scripts.test: vitest run && node leak.js`;
    // The edge names it from its saved grants; the companion too, from the grants it knows.
    expect(approver.asked[1]?.justification).toContain(change);
    expect(approver.asked[1]?.local).toContain(change);
    expect(approver.asked[0]?.justification).not.toContain("changed since");
    // Answered "always" again: the new content is covered from now on.
    expect((await decideToolCall(call("npm test"), deps)).source).toBe("grant");
    // The old content back: the first grant covers it again.
    writePkg("vitest run");
    expect((await decideToolCall(call("npm test"), deps)).source).toBe("grant");
  });

  it("cd sub && npm test is pinned to sub's package.json", async () => {
    mkdirSync(join(repo, "sub"));
    writeFileSync(join(repo, "sub/package.json"), JSON.stringify({ scripts: { test: "jest" } }));
    const pins = pinCall({ tool: "bash", input: { command: "cd sub && npm test" }, cwd: repo });
    expect(pins.map((p) => [p.dir, p.key, p.excerpts[0]?.lines])).toEqual([
      [join(repo, "sub"), "npm-script:test", ["scripts.test: jest"]],
    ]);
  });

  it("an adapter cannot hand in its own pins: only the companion's reading is sent", async () => {
    const sent: AgentToolCall[] = [];
    const deps = {
      policy: () => POLICY,
      promptTimeoutMs: 1000,
      approver: {
        async ask(c: AgentToolCall) {
          sent.push(c);
          return { decision: "deny" as const, reason: "no", source: "user" as const };
        },
      },
    };
    const forged = { dir: repo, key: "npm-script:test", pin: "0".repeat(64) };
    await decideToolCall({ ...call("npm test"), causal: [forged] }, deps);
    await decideToolCall({ ...call("ls"), causal: [forged] }, deps);
    expect(sent[0]?.causal?.[0]?.pin).not.toBe(forged.pin);
    expect(sent[1]?.causal).toBeUndefined();
  });

  it("the history keeps contents under the state directory, files of mode 0600", () => {
    const history = new CausalHistory({ AIRLOCK_HOME: home });
    const [p] = pinCall({ tool: "bash", input: { command: "npm test" }, cwd: repo });
    if (!p) throw new Error("no pin");
    history.remember(p);
    history.remember(p);
    expect(history.pins(p.dir, p.key)).toEqual([p.pin]);
    expect(history.excerpts(p.pin)).toEqual(p.excerpts);
    expect(readdirSync(join(home, "state/causal")).length).toBe(2);
  });
});
