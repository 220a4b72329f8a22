// The companion's side of companion.run: local policy first (a deny never runs), a real bash run with
// capped output and a time limit, and a run id that is never started twice.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EdgeRuns, OUTPUT_CAP } from "../../../src/companion/daemon/edge-runs.ts";
import type { PolicyState } from "../../../src/companion/local-policy/load.ts";
import { compilePolicy } from "../../../src/policy/index.ts";
import type { ClientMessage } from "../../../src/protocol/index.ts";

type Result = Extract<ClientMessage, { type: "companion_run_result" }>;

const YAML = `version: 1
default_action: ask
rules:
  - name: no rm
    condition: tool == "bash" && command.startsWith("rm ")
    action: deny
    message: rm is not allowed here
`;

function runs() {
  const compiled = compilePolicy([{ layer: "user", path: "/u/permissions.yaml", text: YAML }]);
  if (!compiled.ok) throw new Error("policy");
  const state: PolicyState = {
    ok: true,
    policy: compiled.policy,
    files: [],
    loadedAt: new Date().toISOString(),
  };
  const sent: Result[] = [];
  const edgeRuns = new EdgeRuns(
    () => ({ policy: () => state, promptTimeoutMs: 1_000 }),
    (m) => sent.push(m),
    () => {},
  );
  return { edgeRuns, sent };
}

const dir = () => mkdtempSync(join(tmpdir(), "airlock-run-"));

describe("companion.run on the companion", () => {
  it("refuses what local policy denies, without running it", async () => {
    const { edgeRuns, sent } = runs();
    const cwd = dir();
    await edgeRuns.handle({
      type: "companion_run",
      runId: "r1",
      command: `rm -rf ${cwd}`,
      cwd,
      timeoutMs: 2_000,
    });
    expect(sent[0]).toMatchObject({ decision: "deny", exitCode: null });
    expect(sent[0]?.reason).toContain("rm is not allowed here");
  });

  it("runs an approved command once per run id and reports its output", async () => {
    const { edgeRuns, sent } = runs();
    const cwd = dir();
    const request = {
      type: "companion_run" as const,
      runId: "r2",
      command: "echo ran >> log.txt; echo out; echo err >&2",
      cwd,
      timeoutMs: 5_000,
    };
    await edgeRuns.handle(request);
    await edgeRuns.handle(request);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      decision: "allow",
      exitCode: 0,
      stdout: "out\n",
      stderr: "err\n",
      timedOut: false,
    });
    expect(readFileSync(join(cwd, "log.txt"), "utf8")).toBe("ran\n");
  });

  it("caps output and stops a command at its time limit", async () => {
    const { edgeRuns, sent } = runs();
    await edgeRuns.handle({
      type: "companion_run",
      runId: "r3",
      command: `head -c ${OUTPUT_CAP * 2} /dev/zero | tr '\\0' x`,
      cwd: dir(),
      timeoutMs: 5_000,
    });
    expect(sent[0]).toMatchObject({ truncated: true });
    expect(sent[0]?.stdout.length).toBe(OUTPUT_CAP);
    await edgeRuns.handle({
      type: "companion_run",
      runId: "r4",
      command: "sleep 30",
      cwd: dir(),
      timeoutMs: 300,
    });
    expect(sent[1]).toMatchObject({ timedOut: true });
  });
});
