// xxd reads `-c8` as `-c 8` (it compares its words by prefix), which the grammar called an unknown option
// (over-asks, round 12). A number glued to a two-letter option is now placed as its value; a glued name,
// path or anything else stays not understood. Attacks first; strace shows the glued form opening only the
// files the judge placed.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { check, straceAvailable } from "./effects-oracle.ts";
import { BALANCED, judge, READ_ONLY, STRICT_PROFILES } from "./policies.ts";

const everyPolicy = [["read-only", READ_ONLY], ...STRICT_PROFILES] as const;

describe("xxd with a glued number", () => {
  it("never allows a secret, a write, a glued name or a glued word that is not a number (written first)", () => {
    for (const command of [
      "xxd -c8 .env",
      "xxd -c8 README.md out.bin",
      "xxd -r -c8 dump.hex README.md",
      "xxd -ncafe -i README.md",
      "xxd -c8x README.md",
      "xxd -c/etc/shadow README.md",
      "xxd -l$N README.md",
    ])
      for (const [name, policy] of everyPolicy) {
        const r = judge(policy, command);
        expect(r.action, `${name}: ${command}\n${r.reasons.join("\n")}`).not.toBe("allow");
      }
  });

  it("places the number as the option's value", () => {
    for (const command of ["xxd -c8 README.md", "xxd -s+16 -l0x40 README.md", "xxd -c4 -g1 README.md"]) {
      const r = judge(BALANCED, command);
      expect(r.action, `${command}\n${r.reasons.join("\n")}`).toBe("allow");
    }
  });

  it.skipIf(!straceAvailable())("opens only the file the judge placed (strace)", () => {
    const sandbox = mkdtempSync(join(tmpdir(), "airlock-xxd-"));
    try {
      writeFileSync(join(sandbox, "README.md"), "# hi\n");
      writeFileSync(join(sandbox, ".env"), "K=1\n");
      for (const command of ["xxd -c8 README.md", "xxd -s+1 -l0x4 README.md"]) {
        const r = check(command, sandbox);
        expect(r.unreported, command).toEqual([]);
        expect(r.understood, command).toBe(true);
      }
    } finally {
      rmSync(sandbox, { recursive: true, force: true });
    }
  });
});
