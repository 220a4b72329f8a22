// Round 21 over-ask (fix21f): `du -sh *` prints one total per operand, so a secret directory among the
// matches shows as its own name only, as `ls -d *` does; the glob was refused for listing its names. Only
// the grammar knows whether an option is given (`ls -I -d *`: -d is -I's pattern, and ls then listed the
// secret directory's names while the judge allowed it). Real bash is the oracle.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BALANCED } from "../../policy/shell/policies.ts";
import { type DiskFixture, diskFixture, judgeOnDisk, write } from "./disk-fixture.ts";

let fx: DiskFixture;
beforeAll(() => {
  fx = diskFixture();
  write(join(fx.ws, "secrets", "prod-db", "password.txt"), "hunter2\n");
});
afterAll(() => fx.cleanup());

const judge = (command: string) =>
  judgeOnDisk(BALANCED, { tool: "bash", input: { command }, cwd: fx.ws, home: fx.home });

function bash(command: string): string {
  const r = spawnSync("bash", ["-c", command], {
    cwd: fx.ws,
    env: { HOME: fx.home, PATH: process.env.PATH },
  });
  return r.stdout.toString() + r.stderr.toString();
}

describe("a glob over a secret directory, summarized", () => {
  it.each(["du -sh * | sort -h", "du -s *", "du --summarize -c *", "ls -d *"])(
    "%s prints the directory's own name only, and is allowed",
    (command) => {
      const out = bash(command);
      expect(out).toMatch(/secrets/);
      expect(out).not.toContain("prod-db");
      const r = judge(command);
      expect(r.action, `${command}\n${r.reasons.join("\n")}\n${r.why}`).toBe("allow");
    },
  );

  it.each(["du -h *", "du -ah *", "du -d 1 *", "ls -I -d *", "ls --hide -d *", "du --exclude -s *"])(
    "%s prints the names in it in real bash, and asks",
    (command) => {
      expect(bash(command)).toContain("prod-db");
      const r = judge(command);
      expect(r.action, `${command}\n${r.reasons.join("\n")}\n${r.why}`).toBe("ask");
      expect(r.why).toContain("secrets");
    },
  );
});
