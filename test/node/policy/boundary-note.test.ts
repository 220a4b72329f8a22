import { describe, expect, it } from "vitest";
import { boundaryNote } from "../../../src/policy/index.ts";
import { ALLOWLIST, compile, user } from "./helpers.ts";

describe("boundaryNote", () => {
  it("describes the live rules", () => {
    const note = boundaryNote(compile(user(ALLOWLIST)));
    expect(note).toMatch(/^Airlock policy: /);
    expect(note).toMatch(/file access is limited to the project/);
    expect(note).toMatch(/shell commands are checked/);
    expect(note).toMatch(/needs a person's approval/);
  });
  it("says nothing when everything is allowed and there are no rules", () => {
    expect(boundaryNote(compile(user("default_action: allow\n")))).toBe("");
  });
  it("mentions web restrictions only when rules touch webfetch", () => {
    const note = boundaryNote(
      compile(
        user(
          `default_action: allow\nrules:\n  - name: w\n    condition: tool == "webfetch"\n    action: ask\n`,
        ),
      ),
    );
    expect(note).toMatch(/web access is restricted/);
    expect(note).not.toMatch(/file access/);
  });
});
