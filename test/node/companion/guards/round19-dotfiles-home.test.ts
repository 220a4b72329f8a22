// The class scan of user configuration files (round 19) under a realistic developer's home: twenty everyday
// writes in the project stay allowed although ~/.bashrc's aliases cd into it and below it, ~/.gitconfig and VS
// Code name it, and VS Code's Local History, workspace state, logs, vim's undo files and the shell's history
// name its files (state, not configuration). A file the home does name by path (a vim option's program) asks.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { write } from "./disk-fixture.ts";
import { dotfilesHome, EVERYDAY_WRITES } from "./dotfiles-home.ts";
import { judgeWrite } from "./judge-write.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt19-dotfiles-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const home = join(base, "dev");
const { ws } = dotfilesHome(home);

/** Everyday text: the facts of the write alone, not of what it holds. */
const written = (rel: string) => judgeWrite(ws, home, rel, { content: "x\n" });

describe("a realistic dotfiles home", () => {
  it("leaves twenty everyday writes in the project allowed", () => {
    const asked = EVERYDAY_WRITES.filter((rel) => written(rel).action !== "allow");
    expect(asked).toEqual([]);
  });

  it("asks for a project file it names by path, found once the configuration changes", () => {
    expect(written("tools/lint.sh").action).toBe("allow");
    write(
      join(home, ".vim", "after", "plugin", "lint.vim"),
      `let g:ale_python_black_executable = '${ws}/tools/lint.sh'\n`,
    );
    expect(written("tools/lint.sh").action).not.toBe("allow");
  });
});
