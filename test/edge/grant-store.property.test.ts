// Property (issue 31): over random sequences of save / list / use / revoke / restart, the Grants list is
// always exactly what covers calls: a call is decided by a grant if and only if its grant is listed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { device } from "./approvals-helpers.ts";
import {
  caseName,
  type GrantCase,
  granted,
  listedKeys,
  listGrants,
  restart,
  revoke,
  save,
  use,
} from "./grant-support.ts";

const CASES: GrantCase[] = [
  { kind: "agent", path: "/work/repo/src/p.ts", effect: "allow" },
  { kind: "session", path: "/work/repo/src/q.ts", session: "s-prop" },
  { kind: "proposal", body: false, identity: "bot", effect: "allow", path: "effect" },
  { kind: "proposal", body: true, identity: "bot", effect: "deny", path: "echo" },
];

type Step = { op: "save" | "use" | "revoke"; at: number } | { op: "list" } | { op: "restart" };

const index = fc.integer({ min: 0, max: CASES.length - 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constantFrom<"save" | "use" | "revoke">("save", "use", "revoke"), at: index }),
  fc.constant<Step>({ op: "list" }),
  fc.constant<Step>({ op: "restart" }),
);

describe("the Grants list is what covers calls", { timeout: 600_000 }, () => {
  it("after every step of any save/list/use/revoke/restart sequence", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 9 }), async (steps) => {
        const d = await device();
        /** The model: which cases have a saved grant, by the id the list gave it. */
        const saved = new Map<number, string>();
        const check = async () => {
          const listed = listedKeys(await listGrants(d));
          expect([...listed.values()].sort()).toEqual(
            [...saved.keys()].map((i) => caseName(CASES[i] as GrantCase)).sort(),
          );
          return listed;
        };
        for (const s of steps) {
          if (s.op === "list") await check();
          else if (s.op === "restart") await restart(d);
          else {
            const c = CASES[s.at] as GrantCase;
            if (s.op === "use") {
              expect(await use(d, c), caseName(c)).toBe(saved.has(s.at) ? granted(c) : "ask");
            } else if (s.op === "save" && !saved.has(s.at)) {
              const before = new Set((await check()).keys());
              await save(d, c);
              const added = [...listedKeys(await listGrants(d)).keys()].filter((id) => !before.has(id));
              expect(added, caseName(c)).toHaveLength(1);
              saved.set(s.at, added[0] ?? "");
            } else if (s.op === "revoke") {
              const id = saved.get(s.at);
              if (id) {
                expect(await revoke(d, id)).toBe(200);
                saved.delete(s.at);
              }
            }
          }
        }
        // Finally every case: covered exactly when its grant is listed.
        await check();
        for (const [i, c] of CASES.entries())
          expect(await use(d, c), caseName(c)).toBe(saved.has(i) ? granted(c) : "ask");
      }),
      { numRuns: 12 },
    );
  });
});
