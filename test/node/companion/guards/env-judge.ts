// One call in a workspace judged under several starter profiles with the agent's environment named per call:
// the red team's rounds on variables that point programs (and the judge) into the project (rounds 15, 16).
import { join } from "node:path";
import { expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import type { CompiledPolicy } from "../../../../src/policy/compiled.ts";
import type { ToolCall } from "../../../../src/policy/types.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { judgeOnDisk } from "./disk-fixture.ts";

/** Each profile's answer, in the order the profiles were named. */
export type Judged = ReturnType<typeof judgeOnDisk>[];

/**
 * Judges calls from `ws` under each of `profiles`, the disk read with the agent's environment `env` (HOME the
 * fake `home` unless `env` names another), and the shapes the tests use: a bash command, the Write tool with
 * `content`, the Read tool.
 */
export function envJudge(ws: string, home: string, profiles: readonly CompiledPolicy[]) {
  const judge = (call: Omit<ToolCall, "cwd">, env: NodeJS.ProcessEnv = {}): Judged => {
    const disk = diskCheck({ env: { HOME: home, ...env } });
    return profiles.map((p) => judgeOnDisk(p, { ...call, cwd: ws } as ToolCall, { disk }));
  };
  return {
    judge,
    bash: (command: string, env: NodeJS.ProcessEnv = {}) => judge({ tool: "bash", input: { command } }, env),
    writeTool: (rel: string, env: NodeJS.ProcessEnv = {}, content = "x\n") =>
      judge({ tool: "write", input: { file_path: join(ws, rel), content } }, env),
    readTool: (rel: string, env: NodeJS.ProcessEnv = {}) =>
      judge({ tool: "read", input: { file_path: join(ws, rel) } }, env),
  };
}

/**
 * Each profile's answer is not an allow, and its facts name `because` (the variable, or what it led to); a
 * wrong action shows the facts.
 */
export function expectAsks(judged: Judged, because: RegExp, what: string): void {
  for (const j of judged) {
    expect(j.action, `${what}\n${j.why}`).not.toBe("allow");
    expect(j.why, what).toMatch(because);
  }
}

/** Every profile after the first (cautious, which asks for any write) allows it: as before, with a clean environment. */
export function expectAllowedClean(judged: Judged, what: string): void {
  for (const j of judged.slice(1)) expect(j.action, what).toBe("allow");
}

/** The calls the variable rounds judge: a bash command, or the Write tool on `path`. */
export type EnvCall = { command: string } | { path: string };

/** One call from `ws` (the workspace) under balanced, the disk read with the agent's `env` over HOME at `home`. */
export function judgedWith(ws: string, home: string) {
  return (env: NodeJS.ProcessEnv, call: EnvCall) => {
    const tool = "command" in call ? "bash" : "write";
    const input = "command" in call ? call : { file_path: call.path, content: "x\n" };
    const c = { tool, input, cwd: ws, workspace: ws, home } as ToolCall;
    return judgeOnDisk(BALANCED, c, { disk: diskCheck({ env: { HOME: home, ...env } }) });
  };
}

type VariableCase = [name: string, value: string, what: string];

/**
 * A test per row: with the variable set, running each `runs` command asks, and so does writing each `writes` file
 * (relative to `ws`); the facts name the variable.
 */
export function itAsksForVariables(
  judged: ReturnType<typeof judgedWith>,
  ws: string,
  runs: VariableCase[],
  writes: VariableCase[],
): void {
  const expectAsksBy = (name: string, j: ReturnType<typeof judgeOnDisk>) => {
    expect(j.action, j.why).toBe("ask");
    expect(j.why).toContain(name);
  };
  it.each(runs)("%s=%s: %s asks", (name, value, command) => {
    expectAsksBy(name, judged({ [name]: value }, { command }));
  });
  it.each(writes)("%s=%s: writing %s asks", (name, value, rel) => {
    expectAsksBy(name, judged({ [name]: value }, { path: join(ws, rel) }));
  });
}

/** A test per row: with an everyday value set, the command is judged as with a clean environment. */
export function itJudgesAsClean(judged: ReturnType<typeof judgedWith>, cases: VariableCase[]): void {
  it.each(cases)("%s=%s: %s", (name, value, command) => {
    const clean = judged({}, { command });
    const j = judged({ [name]: value }, { command });
    expect(j.action, j.why).toBe(clean.action);
  });
}
