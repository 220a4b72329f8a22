// `env -S 'cat README.md'` asked as a print of the environment (round 12's over-ask), though env runs the
// string's command: `-vS` was already understood. A string of plain words with a command word runs it; a
// string env reads otherwise (a comment, `${VAR}`, an escape, only assignments) still counts as none.
// Attacks first; bash shows what each prints, strace what the allowed form opens.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { check, straceAvailable } from "./effects-oracle.ts";
import { BALANCED, judge, READ_ONLY, STRICT_PROFILES } from "./policies.ts";

afterAll(cleanBashRuns);
const everyPolicy = [["read-only", READ_ONLY], ...STRICT_PROFILES] as const;

describe("env -S STRING", () => {
  it("never allows a string that runs no command (env then prints the environment) or reads a secret (written first)", () => {
    for (const command of [
      "env -S ''",
      "env -S 'X=1'",
      "env -S 'X=1 #cat'",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
      "env -S '${X}'",
      "env -S -i",
      "env -S 'cat .env'",
    ])
      for (const [name, policy] of everyPolicy) {
        const r = judge(policy, command);
        expect(r.action, `${name}: ${command}\n${r.reasons.join("\n")}`).not.toBe("allow");
      }
    const env = { SECRET_TOKEN: "K-SECRET" };
    expect(runInBash("env -S 'X=1 #cat'", { env }).stdout).toContain("K-SECRET");
    expect(runInBash("env -S ''", { env }).stdout).toContain("K-SECRET");
  });

  it("allows a plain command string, as env -vS was", () => {
    for (const command of ["env -S 'cat README.md'", "env -S 'wc -l README.md'", "env -vS 'cat README.md'"]) {
      const r = judge(BALANCED, command);
      expect(r.action, `${command}\n${r.reasons.join("\n")}`).toBe("allow");
    }
    expect(
      runInBash("env -S 'cat README.md'", { files: { "README.md": "hi\n" }, env: { T: "K-SECRET" } }).stdout,
    ).toBe("hi\n");
  });

  it.skipIf(!straceAvailable())("opens only the file the judge placed (strace)", () => {
    const sandbox = mkdtempSync(join(tmpdir(), "airlock-envs-"));
    try {
      writeFileSync(join(sandbox, "README.md"), "hi\n");
      const r = check("env -S 'cat README.md'", sandbox);
      expect(r.unreported).toEqual([]);
      expect(r.unjudgedExecs).toEqual([]);
    } finally {
      rmSync(sandbox, { recursive: true, force: true });
    }
  });
});
