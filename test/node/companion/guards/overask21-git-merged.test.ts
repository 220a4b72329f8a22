// Round 21's over-ask: `git branch --merged` asked ("--merged needs a value"), but git's ref filters take their
// commit as PARSE_OPT_LASTARG_DEFAULT: none when the option is the last word (HEAD), else the next word, whatever
// it is (`--merged -v` filters by a commit named `-v`). The same for --no-merged, --contains and --no-contains,
// in git branch, git tag and git for-each-ref.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { judgeCommand } from "./judge-command.ts";

const ws = mkdtempSync(join(tmpdir(), "airlock-merged-"));
afterAll(() => rmSync(ws, { recursive: true, force: true }));
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@e", ...args], { cwd: ws, encoding: "utf8" });
git("init", "-q", "-b", "main");
writeFileSync(join(ws, "a.txt"), "a\n");
git("add", "a.txt");
git("commit", "-qm", "a");
git("branch", "done");

describe("git's ref filters take their commit only when a word follows", () => {
  it.each([
    "git branch --merged",
    "git branch --no-merged",
    "git branch --merged main",
    "git branch -a --contains",
    "git branch -v --no-contains main",
    "git tag --merged",
    "git for-each-ref --merged",
    "git for-each-ref --contains main refs/heads",
  ])("%s is a read", (command) => {
    expect(judgeCommand(ws, command).action).toBe("allow");
  });

  it("git reads the last one as HEAD (the listing runs)", () => {
    expect(git("branch", "--merged")).toContain("done");
  });

  it("a name after the filter's commit still asks, as a bare branch name (which creates it) does", () => {
    expect(judgeCommand(ws, "git branch newname").action).toBe("ask");
    expect(judgeCommand(ws, "git branch --merged main newname").action).toBe("ask");
  });
});
