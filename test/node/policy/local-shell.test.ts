// Codex's `local_shell` (the Responses API's local shell): the directory it runs in, in the flattened form
// (`working_directory` beside `command`) and inside an `action`. A directory the mapping uses is understood;
// one it would drop (beside an `action`, or a second one) makes the call not understood.
import { describe, expect, it } from "vitest";
import { canonicalCalls } from "../../../src/policy/tool-names.ts";

const one = (input: Record<string, unknown>) => {
  const c = canonicalCalls("local_shell", input);
  expect(c).toHaveLength(1);
  return c[0] as (typeof c)[number];
};

describe("local_shell's working directory", () => {
  it.each([
    [{ command: ["ls"], working_directory: "/p/sub" }],
    [{ command: ["ls"], workdir: "/p/sub" }],
    [{ command: ["ls"], working_directory: "/p/sub", timeout_ms: 5000 }],
    [{ action: { type: "exec", command: ["ls"], working_directory: "/p/sub" } }],
    [{ action: { type: "exec", command: ["ls"], workdir: "/p/sub" } }],
  ])("%j runs in /p/sub and is understood", (input) => {
    const c = one(input);
    expect(c.cwd).toBe("/p/sub");
    expect(c.notUnderstood).toEqual([]);
  });

  it.each([
    // The mapper reads the action's fields: a top-level directory beside it would be dropped.
    [{ action: { command: ["ls"] }, working_directory: "/elsewhere" }, "working_directory"],
    [{ action: { command: ["ls"] }, workdir: "/elsewhere" }, "workdir"],
    [{ command: ["ls"], working_directory: "/p/a", workdir: "/p/b" }, "two working directories"],
  ])("never understands %j (a directory it would drop)", (input, word) => {
    const c = one(input);
    expect(c.notUnderstood.join("\n")).toContain(word);
  });
});
