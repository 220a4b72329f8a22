// Red team round 14, r14-18: `npm version patch` was judged a read, but with a new version npm runs the
// project's preversion/version/postversion scripts, rewrites package.json, and commits and tags (git's
// hooks run). Only `npm version` with no new version, and `npm --version`, print and nothing else.
import { describe, expect, it } from "vitest";
import { AUTONOMOUS, BALANCED, judge, neverAllowed } from "./policies.ts";

describe("npm version", () => {
  const bumps = [
    "npm version patch",
    "npm version 9.9.9",
    "npm version from-git",
    "npm --silent version major",
  ];

  it("with a new version it is never allowed, not even by the autonomous starter", () => {
    for (const command of bumps) {
      neverAllowed(command);
      const r = judge(AUTONOMOUS, command);
      expect(r.action, `autonomous: ${command}\n${r.reasons.join("\n")}`).toBe("ask");
      expect(r.reasons.join("\n")).toContain("commits and tags");
    }
  });

  it("printing the versions stays a read", () => {
    for (const command of ["npm version", "npm version --json", "npm --version", "npm -v"])
      for (const policy of [BALANCED, AUTONOMOUS])
        expect(judge(policy, command).action, command).toBe("allow");
  });
});
