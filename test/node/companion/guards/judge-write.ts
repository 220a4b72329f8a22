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
