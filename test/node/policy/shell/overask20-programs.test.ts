// Over-ask, round 19 (fix20e): everyday calls that asked. The real programs are the oracle for what each
// grammar leans on; every allowed form has its dangerous variant beside it, still asking.
import { afterAll, describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/index.ts";
import type { ExecUnit } from "../../../../src/policy/shell/units.ts";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge } from "./policies.ts";
import { has } from "./proven-case.ts";

afterAll(cleanBashRuns);

/** The named program's unit effects as `access path`, or null when not understood. */
function effects(command: string, program: string): string[] | null {
  const unit = analyzeShell(command).units.find(
    (u): u is ExecUnit => u.kind === "exec" && u.program === program,
  );
  if (unit === undefined || unit.notUnderstood !== undefined) return null;
  return (unit.effects?.paths ?? []).map((e) => `${e.access} ${e.arg.value}`);
}

describe("more", () => {
  it.runIf(has("more"))("with no terminal copies its files and never reads a key (`!cmd`) from stdin", () => {
    const run = runInBash("more f", { files: { f: "hello\n" }, stdin: "!touch PWNED\nv\n" });
    expect(run.stdout).toContain("hello");
    expect(run.exists("PWNED")).toBe(false);
  });

  it.runIf(has("more"))("takes +NUM and +/TEXT out of its words wherever they stand, even after --", () => {
    const run = runInBash("more -- +/zz +2 -- f", { files: { f: "a\nzz\n" } });
    expect(run.stderr).not.toContain("+/zz");
    expect(run.stderr).toContain("cannot open --");
    expect(effects("more -- +/zz +2 -- f", "more")).toEqual(["read --", "read f"]);
  });

  it("reads its files as cat does: a workspace file is allowed, a secret or another file is not", () => {
    expect(judge(BALANCED, "more README.md").action).toBe("allow");
    expect(effects("more -5 -n 3 --squeeze README.md", "more")).toEqual(["read README.md"]);
    expect(judge(BALANCED, "more ~/.ssh/id_rsa").action).not.toBe("allow");
    expect(judge(BALANCED, "more /etc/shadow").action).not.toBe("allow");
  });

  it("MORE set by the command, or an option it does not know, stays asking", () => {
    expect(judge(BALANCED, "MORE=-x more README.md").action).not.toBe("allow");
    expect(effects("more --bogus README.md", "more")).toBeNull();
  });
});
