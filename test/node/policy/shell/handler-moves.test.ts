// Red team round 10: a trap handler (DEBUG runs before every command, ERR after a failing one) and a
// mapfile/readarray callback run in the current shell, so a `cd` in one moves every command after it.
// The handler is judged as a unit of its own; after it, where the shell is is unknown. The attacks run
// in real bash in the corpus (rt10-003*).
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge, READ_ONLY } from "./policies.ts";

afterAll(cleanBashRuns);

const MOVES = ["cd d", "pushd d", "builtin cd d", "command cd d", "c\\d d", "source x.sh", "eval cd d"];
const HOLDERS = [
  (h: string) => `trap '${h}' DEBUG`,
  (h: string) => `trap -- '${h}' ERR; false`,
  (h: string) => `trap '${h}' RETURN; f() { :; }; f`,
  (h: string) => `mapfile -C '${h} #' -c 1 x < README.md`,
  (h: string) => `readarray -C '${h} #' -c1 x < README.md`,
];

describe("handlers that move the shell", () => {
  it("bash runs a DEBUG handler's cd in the shell itself", () => {
    const r = runInBash("mkdir d; trap 'cd d' DEBUG; pwd");
    expect(r.stdout.trim()).toBe(`${r.dir}/d`);
  });

  it("property: after a handler that may move, a read is never allowed", () => {
    fc.assert(
      fc.property(fc.constantFrom(...MOVES), fc.constantFrom(...HOLDERS), (move, holder) => {
        const command = `${holder(move)}; cat hosts.yml`;
        expect(judge(READ_ONLY, command).action, command).not.toBe("allow");
        expect(judge(BALANCED, command).action, command).not.toBe("allow");
      }),
    );
  });

  it("a handler that does not move leaves later reads as they were", () => {
    for (const command of [
      "trap 'echo hi' DEBUG; cat README.md",
      "mapfile -C 'echo' -c 1 x < README.md; cat README.md",
    ])
      expect(judge(BALANCED, command).action, command).toBe("allow");
  });
});
