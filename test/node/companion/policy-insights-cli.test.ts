// `airlock policy stats|suggest` as a person reads them.
import { describe, expect, it } from "vitest";
import { statsLines, suggestionLines } from "../../../src/companion/commands/policy-insights.ts";

describe("airlock policy stats", () => {
  it("leads with asks per 100 calls, then one line per reason", () => {
    const text = statsLines({
      days: 7,
      since: "2026-11-19T00:00:00.000Z",
      calls: 200,
      asks: 30,
      asks_per_100: 15,
      by_reason: [
        { reason: "not_understood", asks: 10, per_100: 5 },
        { reason: "no_rule", asks: 12, per_100: 6 },
        { reason: "high", asks: 4, per_100: 2 },
        { reason: "causal_change", asks: 4, per_100: 2 },
        { reason: "rule", asks: 0, per_100: 0 },
      ],
    });
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toBe("15 asks per 100 calls over the last 7 days (30 of 200 calls asked a person)");
    expect(lines.slice(1).map((l) => l.trim().split(/\s{2,}/)[0])).toEqual([
      "not understood",
      "no rule",
      "HIGH risk",
      "causal change",
      "a rule asks",
    ]);
    expect(lines[2]).toContain("##");
  });
});

describe("airlock policy suggest", () => {
  it("shows each rule's YAML, the policy diff, what else it allows and how to add it", () => {
    const text = suggestionLines({
      threshold: 3,
      suggestions: [
        {
          id: "abc",
          tool: "bash",
          call: "git log --oneline",
          cwd: "/work/repo",
          approvals: 4,
          last_approved_at: "2026-11-26T00:00:00.000Z",
          name: "Allow git log --oneline",
          condition: 'tool == "bash" && command == "git log --oneline"',
          yaml: "- name: Allow git log --oneline\n  action: allow",
          diff: "+ - name: Allow git log --oneline",
          explain: ["Allows exactly `git log --oneline`."],
        },
      ],
    });
    expect(text).toContain("git log --oneline  (approved 4 times in /work/repo)");
    expect(text).toContain("    - name: Allow git log --oneline\n      action: allow");
    expect(text).toContain("    + - name: Allow git log --oneline");
    expect(text).toContain("  - Allows exactly `git log --oneline`.");
    expect(text).toContain('{"id": "abc"}');
    expect(suggestionLines({ threshold: 3, suggestions: [] })).toMatch(
      /^no suggestions: no understood call was approved 3 times/,
    );
  });
});
