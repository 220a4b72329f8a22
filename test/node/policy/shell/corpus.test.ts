// The adversarial corpus (corpus.jsonl): commands written to make something dangerous look
// harmless, and harmless commands that look dangerous. Every dangerous one is never allowed by
// the read-only allowlist (nor, when its payload is a denied program, by the denylist); every
// harmless one is allowed. Where a case carries a proof, real bash shows the payload runs (or,
// for a harmless case, that it does not), so the engine and bash agree on what runs.
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { DENYLIST, judge, profilePayload, READ_ONLY, STRICT_PROFILES } from "./policies.ts";

afterAll(cleanBashRuns);

const Entry = z.strictObject({
  id: z.string(),
  class: z.string(),
  command: z.string(),
  expect: z.enum(["never-allow", "allow"]),
  /** `creates:PATH` (the payload ran), `not-creates:PATH` (it did not), `prints:TEXT` (a secret was read). */
  proof: z
    .string()
    .regex(/^((not-)?creates|prints):.+$/)
    .optional(),
  files: z.record(z.string(), z.string()).optional(),
  stubs: z.array(z.string()).optional(),
  stdin: z.string().optional(),
  note: z.string().optional(),
  /**
   * `read-only`: the danger is a write inside the workspace, which only the read-only policy forbids (the
   * starter profiles' `balanced` and `autonomous` let the agent edit its workspace).
   */
  danger: z.literal("read-only").optional(),
});
type Entry = z.infer<typeof Entry>;

const entries: Entry[] = readFileSync(new URL("./corpus.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => Entry.parse(JSON.parse(l)));

describe("the adversarial corpus", () => {
  it("has several hundred cases, every class with both kinds of evidence", () => {
    expect(entries.length).toBeGreaterThanOrEqual(700);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    expect(entries.filter((e) => e.proof !== undefined).length).toBeGreaterThan(250);
    expect(entries.filter((e) => e.expect === "allow").length).toBeGreaterThan(40);
  });

  const classes = [...new Set(entries.map((e) => e.class))];
  for (const cls of classes) {
    describe(cls, () => {
      for (const e of entries.filter((x) => x.class === cls)) {
        it(`${e.id}: ${JSON.stringify(e.command)}`, () => {
          const r = judge(READ_ONLY, e.command);
          if (e.expect === "allow") {
            expect(r.action, r.reasons.join("\n")).toBe("allow");
          } else {
            expect(r.action, r.reasons.join("\n")).not.toBe("allow");
            expect(judge(READ_ONLY, e.command, false).action).toBe("deny");
            // The starter profiles (airlock init) allow no dangerous case either, with or without a person.
            for (const [name, profile] of STRICT_PROFILES) {
              if (e.danger === "read-only" && name !== "cautious") continue;
              const p = judge(profile, profilePayload(e.command));
              expect(p.action, `${name}: ${p.reasons.join("\n")}`).not.toBe("allow");
              expect(judge(profile, profilePayload(e.command), false).action, name).toBe("deny");
            }
            if (/\btouch PWNED\b/.test(e.command))
              expect(judge(DENYLIST, e.command).action).not.toBe("allow");
          }
          if (e.proof === undefined) return;
          const kind = e.proof.slice(0, e.proof.indexOf(":"));
          const what = e.proof.slice(kind.length + 1);
          const run = runInBash(e.command, {
            ...(e.files ? { files: e.files } : {}),
            ...(e.stubs ? { stubs: e.stubs } : {}),
            ...(e.stdin !== undefined ? { stdin: e.stdin } : {}),
          });
          if (kind === "prints") expect(run.stdout, run.stderr).toContain(what);
          else expect(run.exists(what), `${kind} ${what}: ${run.stderr}`).toBe(kind === "creates");
        });
      }
    });
  }
});
