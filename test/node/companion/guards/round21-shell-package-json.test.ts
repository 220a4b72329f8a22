// fix21d's note: a Write or Edit of package.json that sets a git-hook manager's key asks (round 20), but a shell
// write of the same file — `echo '{"lint-staged":…}' > package.json`, `cp other.json package.json`, `cat x >>
// package.json` — was an ordinary workspace edit: its text is not read, so the person's next `git commit` ran
// what the agent put there. A shell write onto package.json asks; other files' shell writes stay edits.
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AUTONOMOUS, BALANCED, judgeCommand } from "./judge-command.ts";

const ws = realpathSync(mkdtempSync(join(tmpdir(), "airlock-r21-shellpkg-")));
afterAll(() => rmSync(ws, { recursive: true, force: true }));
writeFileSync(join(ws, "package.json"), '{"name":"c","version":"1.0.0"}\n');
writeFileSync(join(ws, "other.json"), '{"lint-staged":{"*":"node x.js"}}\n');
symlinkSync("package.json", join(ws, "manifest.json"));

describe("a shell write onto package.json asks: its text is not read", () => {
  it.each([
    `echo '{"lint-staged":{"*":"node x.js"}}' > package.json`,
    "cat other.json > package.json",
    "printf '%s' x >> package.json",
    "echo x > ./package.json",
    "echo x > manifest.json",
  ])("%s", (command) => {
    for (const policy of [BALANCED, AUTONOMOUS])
      expect(judgeCommand(ws, command, { policy }).action).toBe("ask");
  });

  it("the same redirection onto another file stays an edit under balanced", () => {
    expect(judgeCommand(ws, "echo x > notes.txt").action).toBe("allow");
    expect(judgeCommand(ws, "cat other.json > copy.json").action).toBe("allow");
  });
});
