// Write-then-read compounds as a property (red team, round 20): any way of writing (a redirection, `>>`, tee,
// cp, mv, dd, truncate, ln, git checkout) to a file a later part's disk facts come from (rg's ignore files, package.json's packageManager,
// a module shadowing python's standard library, git apply's patch, tar's archive), joined by any list operator,
// is never allowed under either starter, whatever the file held before.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { ToolCall } from "../../../../src/policy/types.ts";
import { AUTONOMOUS, BALANCED } from "../../policy/shell/policies.ts";
import { gitWorkspace, judgeOnDisk } from "./disk-fixture.ts";

const { base, ws, home } = gitWorkspace("airlock-r20prop-", {
  "README.md": "hi\n",
  "notes.txt": "x\n",
  "package.json": '{"name":"h3"}\n',
  "p.diff": "x\n",
  "sub/.keep": "",
});
expect(spawnSync("tar", ["-cf", join(ws, "a.tar"), "README.md"], { cwd: ws }).status).toBe(0);
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Each later read with the files its facts come from. */
const READERS: { command: string; files: string[] }[] = [
  { command: "rg API", files: [".ignore", ".gitignore", ".rgignore", "src/.ignore"] },
  { command: "rg -n BEGIN .", files: [".gitignore", ".ignore"] },
  { command: "yarn --version", files: ["package.json"] },
  { command: "pnpm --version", files: ["package.json"] },
  { command: "python3 -m json.tool package.json", files: ["json.py", "json/__init__.py"] },
  { command: "git apply --check p.diff", files: ["p.diff"] },
  { command: "tar -xf a.tar -C sub", files: ["a.tar"] },
];

/** Ways to write `f` before the read. */
const WRITERS: ((f: string) => string)[] = [
  (f) => `echo x > ${f}`,
  (f) => `printf 'x\\n' >> ${f}`,
  (f) => `: > ${f}`,
  (f) => `echo x | tee ${f}`,
  (f) => `cp notes.txt ${f}`,
  (f) => `mv notes.txt ${f}`,
  (f) => `dd if=notes.txt of=${f}`,
  (f) => `truncate -s0 ${f}`,
  (f) => `ln -sf notes.txt ${f}`,
  (f) => `git checkout HEAD -- ${f}`,
];

const JOINS = ["; ", " && ", "\n", " || "];

describe("a write to a file a later part reads its facts from", () => {
  it("is never allowed under either starter", () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...READERS)
          .chain((r) =>
            fc.tuple(fc.constant(r.command), fc.constantFrom(...r.files), fc.constantFrom(...WRITERS)),
          ),
        fc.constantFrom(...JOINS),
        fc.constantFrom(BALANCED, AUTONOMOUS),
        ([reader, file, writer], join, policy) => {
          const command = `${writer(file)}${join}${reader}`;
          const call = { tool: "bash", input: { command }, cwd: ws, workspace: ws, home } as ToolCall;
          const r = judgeOnDisk(policy, call);
          expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
        },
      ),
      { numRuns: 120 },
    );
  });

  it.each(READERS.map((r) => r.command).filter((c) => !c.startsWith("tar")))(
    "%s alone is allowed",
    (command) => {
      const call = { tool: "bash", input: { command }, cwd: ws, workspace: ws, home } as ToolCall;
      expect(judgeOnDisk(BALANCED, call).action).toBe("allow");
    },
  );
});
