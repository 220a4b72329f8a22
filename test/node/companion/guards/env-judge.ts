// One call in a workspace judged under several starter profiles with the agent's environment named per call:
// the red team's rounds on variables that point programs (and the judge) into the project (rounds 15, 16).
import { join } from "node:path";
import { expect } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import type { CompiledPolicy } from "../../../../src/policy/compiled.ts";
import type { ToolCall } from "../../../../src/policy/types.ts";
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

/** Each profile's answer is not an allow, and its facts name `because` (the variable, or what it led to). */
export function expectAsks(judged: Judged, because: RegExp, what: string): void {
  for (const j of judged) {
    expect(j.action, what).not.toBe("allow");
    expect(j.why, what).toMatch(because);
  }
}

/** Every profile after the first (cautious, which asks for any write) allows it: as before, with a clean environment. */
export function expectAllowedClean(judged: Judged, what: string): void {
  for (const j of judged.slice(1)) expect(j.action, what).toBe("allow");
}
