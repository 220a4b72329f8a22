// A shell attack as a test case: the command, what real bash does with it (a harmless payload
// that appears), and the engine's answer under a strict read-only policy (never allow).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { CompiledPolicy } from "../../../../src/policy/index.ts";
import { type BashRun, type BashSetup, runInBash } from "./bash-proof.ts";
import { judge, profilePayload, READ_ONLY, STRICT_PROFILES } from "./policies.ts";

export interface ProvenCase {
  name: string;
  command: string;
  setup?: BashSetup;
  /** What shows bash ran the hidden part: a file that must exist afterwards, or a check of the run. */
  proof?: string | ((run: BashRun) => boolean);
  /** Run under a pseudo-terminal (pagers only page on a terminal). */
  tty?: boolean;
  /** A program this proof needs that may be missing on a machine. */
  needs?: string;
  /** The policy to judge with (default: the read-only allowlist). */
  policy?: CompiledPolicy;
  /**
   * `read-only`: the payload is a write inside the workspace the judge places, which only the read-only policy
   * and `cautious` forbid (`balanced` lets the agent edit its workspace), as in corpus.jsonl.
   */
  danger?: "read-only";
}

const available = new Map<string, boolean>();
export function has(program: string): boolean {
  let yes = available.get(program);
  if (yes === undefined) {
    yes = spawnSync("sh", ["-c", `command -v ${program}`]).status === 0;
    available.set(program, yes);
  }
  return yes;
}

function ttyWrapped(command: string): string {
  return `script -qec ${JSON.stringify(command)} /dev/null`;
}

/** One `describe` per class: every case runs its payload in real bash and is never allowed. */
export function provenCases(title: string, cases: readonly ProvenCase[]): void {
  describe(title, () => {
    for (const c of cases) {
      it(`${c.name}: ${JSON.stringify(c.command)}`, () => {
        const policy = c.policy ?? READ_ONLY;
        const withUI = judge(policy, c.command);
        expect(withUI.action, withUI.reasons.join("\n")).not.toBe("allow");
        expect(judge(policy, c.command, false).action).toBe("deny");
        // A case written against the read-only allowlist holds for the starter profiles too.
        if (c.policy === undefined)
          for (const [name, profile] of STRICT_PROFILES) {
            if (c.danger === "read-only" && name !== "cautious") continue;
            const p = judge(profile, profilePayload(c.command));
            expect(p.action, `${name}: ${p.reasons.join("\n")}`).not.toBe("allow");
          }
        if (c.proof === undefined || (c.needs !== undefined && !has(c.needs))) return;
        const run = runInBash(c.tty ? ttyWrapped(c.command) : c.command, c.setup);
        const proven = typeof c.proof === "string" ? run.exists(c.proof) : c.proof(run);
        expect(
          proven,
          `bash did not run the payload (status ${run.status}): ${run.stdout} ${run.stderr}`,
        ).toBe(true);
      });
    }
  });
}
