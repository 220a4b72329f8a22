// Red team round 22 (r22-01): `shellcheck -x` asks (it reads every file a script sources), but a project
// `.shellcheckrc` saying `external-sources=true` turned the same switch on from a file the agent may write:
// `shellcheck s.sh` then opened what the script's `source` lines and `# shellcheck source=` directives named,
// ~/.aws/credentials included (strace). The rc is a linter configuration now: read exactly, external sources
// refused as -x is, `source-path` directories judged where they are.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AUTONOMOUS, BALANCED, judgeCommand } from "./judge-command.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-r22-shellcheck-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
/** A workspace holding a script that sources a file outside, and `rc` as its .shellcheckrc (none when null). */
function workspace(rc: string | null, rcName = ".shellcheckrc"): string {
  const ws = join(base, `ws${n++}`);
  mkdirSync(join(ws, "sub"), { recursive: true });
  writeFileSync(
    join(ws, "s.sh"),
    `#!/bin/bash\n# shellcheck source=${base}/outside.sh\nsource ${base}/outside.sh\n`,
  );
  if (rc !== null) writeFileSync(join(ws, rcName), rc);
  return ws;
}
writeFileSync(join(base, "outside.sh"), "TOKEN=x\n");

describe("a .shellcheckrc that follows sources asks, as -x does (r22-01)", () => {
  it.each([
    ["external-sources=true\n", ".shellcheckrc"],
    ["external-sources=true\n", "shellcheckrc"],
    ["# project settings\ndisable=SC2034\nexternal-sources=true\n", ".shellcheckrc"],
    [`source-path=${base}\n`, ".shellcheckrc"],
    ["source-path=../..\n", ".shellcheckrc"],
    ["external-sources = true\n", ".shellcheckrc"],
    ["frobnicate=1\n", ".shellcheckrc"],
  ])("%j in %s", (rc, name) => {
    const ws = workspace(rc, name);
    for (const policy of [BALANCED, AUTONOMOUS])
      expect(judgeCommand(ws, "shellcheck s.sh", { policy }).action).toBe("ask");
  });

  it("a config in a subdirectory counts for the scripts below it", () => {
    const ws = workspace(null);
    writeFileSync(join(ws, "sub", ".shellcheckrc"), "external-sources=true\n");
    writeFileSync(join(ws, "sub", "t.sh"), "source ../s.sh\n");
    expect(judgeCommand(ws, "shellcheck sub/t.sh").action).toBe("ask");
  });

  it.each([
    [null],
    ["disable=SC2034,SC1090\nenable=require-variable-braces\nshell=bash\n"],
    ["external-sources=false\nsource-path=SCRIPTDIR\n"],
    ["source-path=lib\n"],
  ])("%j: shellcheck s.sh stays a read", (rc) => {
    expect(judgeCommand(workspace(rc), "shellcheck s.sh").action).toBe("allow");
  });

  it("the reason names the setting", () => {
    expect(judgeCommand(workspace("external-sources=true\n"), "shellcheck s.sh").reason).toContain(
      "external-sources",
    );
  });
});
