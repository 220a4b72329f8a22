// Claude Code's own reason for asking, from the only thing its PermissionRequest hook input carries about it.
import { describe, expect, it } from "vitest";
import { claudeAskReason } from "../../../src/companion/adapters/claude-code/ask-reason.ts";

describe("claudeAskReason", () => {
  it.each([
    [
      "a read outside the working directories (a symlink to a key)",
      [
        {
          type: "addRules",
          rules: [{ toolName: "Read", ruleContent: "//home/me/.ssh/**" }],
          behavior: "allow",
          destination: "session",
        },
      ],
      "its own permission check would run it only with Read(//home/me/.ssh/**)",
    ],
    [
      "a command prefix no rule allows",
      [{ type: "addRules", rules: [{ toolName: "Bash", ruleContent: "git remote *" }], behavior: "allow" }],
      "its own permission check would run it only with Bash(git remote *)",
    ],
    [
      "a directory to add",
      [{ type: "addDirectories", directories: ["/etc"], destination: "session" }],
      "its own permission check would run it only with access to /etc",
    ],
    [
      "no suggestions (cd before a git command)",
      undefined,
      "its own permission check wants a person for this call",
    ],
    [
      "suggestions of a shape it does not know",
      [{ nope: 1 }, "x"],
      "its own permission check wants a person for this call",
    ],
  ])("%s", (_name, suggestions, expected) => {
    expect(claudeAskReason(suggestions)).toBe(expected);
  });

  it("stays one bounded line however many rules Claude Code offers", () => {
    const rules = Array.from({ length: 200 }, (_, i) => ({ toolName: "Bash", ruleContent: `cmd-${i} *` }));
    const reason = claudeAskReason([{ type: "addRules", rules }]);
    expect(reason.length).toBeLessThanOrEqual(400);
    expect(reason.endsWith("…")).toBe(true);
  });
});
