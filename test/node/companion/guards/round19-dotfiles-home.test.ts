// The class scan of user configuration files (round 19) under a realistic developer's home: twenty everyday
// writes in the project stay allowed although ~/.bashrc's aliases cd into it and below it, ~/.gitconfig and VS
// Code name it, and VS Code's Local History, workspace state, logs, vim's undo files and the shell's history
// name its files (state, not configuration). A file the home does name by path (a vim option's program) asks.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { judgeOnDisk, write } from "./disk-fixture.ts";
import { dotfilesHome, EVERYDAY_WRITES } from "./dotfiles-home.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt19-dotfiles-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const home = join(base, "dev");
const { ws } = dotfilesHome(home);

const judgeWrite = (rel: string) =>
  judgeOnDisk(
    BALANCED,
    {
      tool: "write",
      input: {
        file_path: join(ws, rel),
        content: rel === "package.json" ? "{}\n" : "x\n",
      },
      cwd: ws,
      workspace: ws,
    },
    { disk: diskCheck({ env: { HOME: home } }) },
  );

describe("a realistic dotfiles home", () => {
  it("leaves twenty everyday writes in the project allowed", () => {
    const asked = EVERYDAY_WRITES.filter((rel) => judgeWrite(rel).action !== "allow");
    expect(asked).toEqual([]);
  });

  it("asks for a project file it names by path, found once the configuration changes", () => {
    expect(judgeWrite("tools/lint.sh").action).toBe("allow");
    write(
      join(home, ".vim", "after", "plugin", "lint.vim"),
      `let g:ale_python_black_executable = '${ws}/tools/lint.sh'\n`,
    );
    expect(judgeWrite("tools/lint.sh").action).not.toBe("allow");
  });
});
