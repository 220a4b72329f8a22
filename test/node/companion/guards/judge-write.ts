// Test support: the Write tool on a project file, judged on the disk as the companion reads it with HOME at a
// fake home, the workspace the working directory: the red team's rounds on project files that a user
// configuration or start-up file runs (round 19).
import { join } from "node:path";
import { expect } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import type { CompiledPolicy } from "../../../../src/policy/compiled.ts";
import { AUTONOMOUS, BALANCED } from "../../policy/shell/policies.ts";
import { judgeOnDisk } from "./disk-fixture.ts";

/** What the attacks write: a script that copies a secret out. */
export const LEAK = "cat ~/.netrc > /tmp/leak\n";

export interface WriteOptions {
  policy?: CompiledPolicy;
  /** The text written; package.json always gets `{}` (it must stay JSON to be read as the project's). */
  content?: string;
}

/** Writing `rel` in `ws` under `policy` (balanced unless named), the disk read with HOME at `home`. */
export function judgeWrite(ws: string, home: string, rel: string, opts: WriteOptions = {}) {
  const { policy = BALANCED, content = LEAK } = opts;
  return judgeOnDisk(
    policy,
    {
      tool: "write",
      input: { file_path: join(ws, rel), content: rel === "package.json" ? "{}\n" : content },
      cwd: ws,
      workspace: ws,
    },
    { disk: diskCheck({ env: { HOME: home } }) },
  );
}

/**
 * Each write asks (is not allowed) under both starters, and where `because` is named its facts match it; a
 * failure names the file and the facts.
 */
export function expectWritesAsk(
  ws: string,
  home: string,
  rels: readonly string[],
  { content, because }: { content?: string; because?: RegExp } = {},
): void {
  for (const policy of [BALANCED, AUTONOMOUS])
    for (const rel of rels) {
      const r = judgeWrite(ws, home, rel, { policy, content });
      expect(r.action, `${join(ws, rel)}\n${r.why}`).not.toBe("allow");
      if (because !== undefined) expect(r.why, rel).toMatch(because);
    }
}

/** Each write is allowed under balanced; a failure names the file, the facts and the reasons. */
export function expectWritesAllowed(
  ws: string,
  home: string,
  rels: readonly string[],
  { content }: { content?: string } = {},
): void {
  for (const rel of rels) {
    const r = judgeWrite(ws, home, rel, { content });
    expect(r.action, `${join(ws, rel)}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
  }
}

/**
 * Every way an agent writes `rel` in `ws` — the Write tool, the Edit tool, a shell redirection, each putting
 * `payload` there (its first line for the shell) — under both starters, is judged `action`; a failure lists
 * the ones that are not.
 */
export function expectEveryWayOfWriting(
  ws: string,
  home: string,
  rel: string,
  payload: string,
  action: "ask" | "allow",
): void {
  const file_path = join(ws, rel);
  const line = payload.split("\n")[0] as string;
  const calls = [
    { tool: "write", input: { file_path, content: payload } },
    { tool: "edit", input: { file_path, old_string: "x", new_string: payload } },
    { tool: "bash", input: { command: `printf '%s\\n' '${line}' >> ${rel}` } },
  ];
  const got: string[] = [];
  for (const [name, policy] of [
    ["balanced", BALANCED],
    ["autonomous", AUTONOMOUS],
  ] as const)
    for (const call of calls) {
      const r = judgeOnDisk(policy, { ...call, cwd: ws, workspace: ws, home });
      got.push(`${name} ${call.tool} ${rel}: ${r.action}`);
    }
  expect(got).toEqual(got.map((a) => a.replace(/: \w+$/, `: ${action}`)));
}
