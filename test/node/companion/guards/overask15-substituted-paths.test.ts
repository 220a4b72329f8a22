// Over-ask, issue 20 (round 15): `wc -l $(find src -name '*.ts')` asked, its words being "only known at run
// time". bash splits what a plain find prints at blanks and expands the globs in each name, so where every
// name below the starting points is plain the words are the paths find prints, judged as `find … | xargs
// wc -l` is: a walk of them (found-paths.ts). A name with a blank, a quote, a backslash or a glob
// character, a link onto a secret, a secret directory, a quoted or backquoted substitution, an IFS the
// script set, and a program that writes still ask. `$(git ls-files)` is judged by the tracked names since
// round 16 (overask16g-programs.test.ts).
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BALANCED } from "../../policy/shell/policies.ts";
import { type GitWorkspace, gitWorkspace, judgeOnDisk, KEY, starterActions, write } from "./disk-fixture.ts";

const made: GitWorkspace[] = [];
afterAll(() => {
  for (const w of made) rmSync(w.base, { recursive: true, force: true });
});

function project(files: Record<string, string> = {}): GitWorkspace {
  const w = gitWorkspace(
    "airlock-oa15sp-",
    { "src/a.ts": "export const a = 1;\n", "src/lib/b.ts": "export const b = 2;\n", ...files },
    { ".ssh/id_rsa": KEY },
  );
  made.push(w);
  return w;
}

const judge = (command: string, w: GitWorkspace) =>
  judgeOnDisk(BALANCED, { tool: "bash", input: { command }, cwd: w.ws, workspace: w.ws, home: w.home });

describe("a substitution of the paths a plain find prints", () => {
  it.each([
    "wc -l $(find src -name '*.ts')",
    "wc -l $(find src -type f)",
    "cat $(find . -name '*.ts')",
    "head -n 3 $(find src -name '*.ts' 2>/dev/null)",
  ])("allows %s in a clean project", (command) => {
    const w = project();
    expect(starterActions(command, w.ws, w.home), judge(command, w).why).toEqual([
      "balanced: allow",
      "autonomous: allow",
    ]);
  });

  it.each([
    ["a blank", "src/a b.ts", "blank"],
    ["a glob character (bash expands it to other paths)", "src/[a].ts", "glob character"],
  ])("asks where a name has %s", (_, file, says) => {
    const w = project({ [file]: "x\n" });
    const r = judge("wc -l $(find src -name '*.ts')", w);
    expect(r.action).toBe("ask");
    expect(r.why).toContain(says);
  });

  it("asks where a found name links onto a secret", () => {
    const w = project();
    symlinkSync(join(w.home, ".ssh", "id_rsa"), join(w.ws, "src", "key.ts"));
    expect(judge("cat $(find src -name '*.ts')", w).action).not.toBe("allow");
  });

  it("asks where find walks a secret directory", () => {
    const w = project();
    expect(judge("wc -l $(find ~/.ssh -name 'id*')", w).action).not.toBe("allow");
  });

  it("asks where a glob-named directory would reach a link out of the tree", () => {
    const w = project();
    mkdirSync(join(w.ws, "src", "d*"));
    write(join(w.ws, "src", "d*", "id_rsa"), "x\n");
    symlinkSync(join(w.home, ".ssh"), join(w.ws, "src", "dlink"));
    expect(judge("wc -l $(find src -name 'id_rsa')", w).action).toBe("ask");
  });

  it.each([
    "wc -l \"$(find src -name '*.ts')\"",
    "wc -l `find src -name '*.ts'`",
    "IFS=/; wc -l $(find src -name '*.ts')",
    "wc -l $(find src -print0)",
    "wc -l $(find src -name '*.ts' -delete)",
    "rm $(find src -name '*.ts')",
  ])("still asks for %s", (command) => {
    expect(judge(command, project()).action).toBe("ask");
  });
});
