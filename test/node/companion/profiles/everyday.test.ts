// Issue 21's measure: the built-in everyday calls judged under `balanced` on a sample repository, as the
// companion judges them (policy, then disk). It prints the table (call → action, risk, reason) and holds the
// profile to its promises: read-only calls almost never ask, every ask can be granted or says why, and only
// destructive or outbound calls are high risk.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { EVERYDAY_CALLS } from "../../../../src/companion/profiles/everyday-calls.ts";
import {
  type JudgedEveryday,
  judgeEveryday,
  previewProfiles,
  profilePolicy,
  shownEveryday,
} from "../../../../src/companion/profiles/preview.ts";
import { sampleWorkspace } from "./sample-workspace.ts";

const HOME = "/home/dev";
let root = "";
let judged: JudgedEveryday[] = [];

beforeAll(() => {
  root = sampleWorkspace();
  judged = judgeEveryday(profilePolicy("balanced", HOME), root, HOME, diskCheck());
  const rows = judged.map(
    (j) =>
      `${shownEveryday(j.call).padEnd(52).slice(0, 52)} ${j.call.kind.padEnd(11)} ${j.record.action.padEnd(5)} ${j.record.risk.padEnd(6)} ${j.reason}`,
  );
  console.log(`everyday calls under balanced (${judged.length}):\n${rows.join("\n")}`);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the everyday list under balanced", () => {
  it("has at least 150 calls across reads, edits, runs, git and package managers", () => {
    expect(EVERYDAY_CALLS.length).toBeGreaterThanOrEqual(150);
    for (const kind of ["read", "edit", "run", "git", "install", "destructive", "outbound"])
      expect(
        EVERYDAY_CALLS.some((c) => c.kind === kind),
        kind,
      ).toBe(true);
  });

  it("asks about at most 2% of the read-only calls", () => {
    const reads = judged.filter((j) => j.call.kind === "read");
    const asked = reads.filter((j) => j.record.action !== "allow");
    expect(
      asked.length / reads.length,
      asked.map((j) => `${shownEveryday(j.call)}: ${j.reason}`).join("\n"),
    ).toBeLessThanOrEqual(0.02);
  });

  it("runs file edits inside the workspace", () => {
    for (const j of judged.filter((x) => x.call.kind === "edit" && x.call.tool !== "Bash"))
      expect(j.record.action, shownEveryday(j.call)).toBe("allow");
  });

  it("every ask can be granted exactly, or says in one line why not", () => {
    for (const j of judged.filter((x) => x.record.action === "ask")) {
      const what = `${shownEveryday(j.call)}: ${j.reason}`;
      if (j.offer.always) continue;
      expect(j.offer.why, what).not.toBeNull();
      expect(j.offer.why?.includes("\n"), what).toBe(false);
      // No "always" only for what is high risk or not understood exactly.
      expect(/High risk|not understood|not known|only known|secret/.test(j.offer.why ?? ""), what).toBe(true);
    }
  });

  it("high risk only for destructive or outbound calls, and those are all high and ask", () => {
    for (const j of judged) {
      const what = `${shownEveryday(j.call)}: ${j.reason}`;
      if (j.call.kind === "destructive" || j.call.kind === "outbound") {
        expect(j.record.risk, what).toBe("high");
        expect(j.record.action, what).toBe("ask");
        expect(j.offer.always, what).toBe(false);
        expect(j.offer.wider, what).toEqual([]);
      } else expect(j.record.risk, what).not.toBe("high");
    }
  });

  it("the issue's examples: read-only calls run, recursive grep within a directory is granted for that tree", () => {
    const byCall = new Map(judged.map((j) => [shownEveryday(j.call), j]));
    for (const c of [
      "cat package.json",
      "jq .scripts package.json",
      "git blame src/index.ts",
      "node --version",
      "du -sh .",
    ])
      expect(byCall.get(c)?.record.action, c).toBe("allow");
    for (const c of [
      "npm test",
      "cargo test",
      "npx tsc --noEmit",
      "cd sub && npm test",
      "mv src/util.ts src/helpers.ts",
    ]) {
      expect(byCall.get(c)?.record.risk, c).toBe("medium");
      expect(byCall.get(c)?.offer.always, c).toBe(true);
    }
  });
});

describe("the other profiles on the same repository", () => {
  it("cautious asks about more, autonomous about less; none asks about a read-only everyday call", () => {
    const [cautious, balanced, autonomous] = previewProfiles(root, HOME, diskCheck());
    expect(cautious?.asks).toBeGreaterThan(balanced?.asks ?? 0);
    expect(autonomous?.asks).toBeLessThan(balanced?.asks ?? 0);
    for (const p of [cautious, balanced, autonomous])
      expect(p?.readOnlyAsks, p?.profile).toBeLessThanOrEqual(2);
  });
});
