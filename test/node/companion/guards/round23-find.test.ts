// Red team round 23: r23-01/02 `printf '/home/u/.ssh\0' | find -files0-from - -delete` (or `-printf`, `-ls`) took its
// starting points from standard input, which the judge never read: it listed and then deleted ~/.ssh, judged as a
// walk of the working directory. r23-04 (autonomous) `find src -name '*.js' -delete` removed untracked work as a
// write of the tree, while `rm -rf src` asked as a destroy. -files0-from is not understood; -delete is a destroy.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AUTONOMOUS, BALANCED, HOME, judgeCommand } from "./judge-command.ts";

const ws = realpathSync(mkdtempSync(join(tmpdir(), "airlock-r23-find-")));
afterAll(() => rmSync(ws, { recursive: true, force: true }));
mkdirSync(join(ws, "src"), { recursive: true });
writeFileSync(join(ws, "src", "a.js"), "console.log(1)\n");
writeFileSync(join(ws, "list0"), `${HOME}/.ssh\0`);

const PROFILES = [
  ["balanced", BALANCED],
  ["autonomous", AUTONOMOUS],
] as const;

describe.each(PROFILES)("find under %s", (_name, policy) => {
  const judge = (command: string) => judgeCommand(ws, command, { policy });

  it.each([
    `printf '${HOME}/.ssh\\0' | find -files0-from - -delete`,
    `printf '${HOME}/.ssh\\0' | find -files0-from - -printf '%p %s %M\\n'`,
    "find -files0-from list0 -ls",
    "find -files0-from list0",
    "find . -files0-from list0 -name x",
    "find src -name '*.js' -delete",
    "find src -type f -delete",
    "find . -name '*.orig' -delete",
    "find -L src -delete",
  ])("%s asks", (command) => {
    expect(judge(command).action).toBe("ask");
  });

  it("says which word it did not understand", () => {
    expect(judge("find -files0-from list0").reason).toMatch(/-files0-from/);
  });

  it.each(["find src -name '*.js'", "find . -type f -name '*.ts'", "find src -maxdepth 1 -type d"])(
    "%s stays allowed",
    (command) => {
      const j = judge(command);
      expect(j.action, j.reason).toBe("allow");
    },
  );
});
