// Never (after red team rounds 16/17, fix17a): a tree copied or moved whole lands with every name it holds,
// and only its top was judged. In a workspace with tmpl/.vscode/tasks.json, `cp -r tmpl newdir` made
// newdir/.vscode/tasks.json (run when the folder is opened) and was allowed under autonomous; so were
// `mv tmpl/.vscode sub/` and `cp -a tmpl/. sub`. Each name below the source is now judged where it lands;
// copying an ordinary tree stays allowed.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { AUTONOMOUS } from "../../policy/shell/policies.ts";
import { judgeOnDisk, write } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-fix17-copies-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const ws = join(base, "ws");
const home = join(base, "home");
mkdirSync(home, { recursive: true });
write(join(ws, "tmpl", ".vscode", "tasks.json"), '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}\n');
write(join(ws, "tmpl", "src", "index.ts"), "export {};\n");
write(join(ws, "hooks", "tmpl", ".husky", "pre-commit"), "npm test\n");
write(join(ws, "agent", "deep", "a", "b", ".claude", "settings.json"), "{}\n");
write(join(ws, "globs", "tasks.js", ".vscode", "tasks.json"), "{}\n");
write(join(ws, "plain", "src", "a.ts"), "export const a = 1;\n");
write(join(ws, "plain", "README.md"), "# plain\n");
mkdirSync(join(ws, "sub"), { recursive: true });

const judge = (command: string) =>
  judgeOnDisk(
    AUTONOMOUS,
    { tool: "bash", input: { command }, cwd: ws, workspace: ws },
    { disk: diskCheck({ env: { HOME: home } }) },
  );

describe("fix17a: the names inside a tree copied or moved whole", () => {
  it.each([
    "cp -r tmpl newdir",
    "cp -R tmpl sub",
    "cp -a tmpl/. sub",
    "cp -rT tmpl sub",
    "cp -r tmpl/.vscode sub",
    "cp -r tmpl/.vscode .",
    "mv tmpl newdir",
    "mv tmpl/.vscode sub/",
    "cp -r hooks/tmpl newdir",
    "cp -r agent backup",
    "cp -r globs/*.js sub",
    "cp -r --parents tmpl sub",
  ])("%s asks, naming where a protected file lands", (command) => {
    const r = judge(command);
    expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("ask");
    expect(r.why).toMatch(
      /lands as `.*(\.vscode\/tasks\.json|\.husky\/pre-commit|\.claude\/settings\.json)`/,
    );
  });

  it.each(["cp -r plain backup", "cp -r plain/src sub", "mv plain/src sub/", "cp -r tmpl/src sub"])(
    "%s (an ordinary tree) stays allowed",
    (command) => {
      const r = judge(command);
      expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
    },
  );

  it("a tree over the bound asks rather than being listed in part", () => {
    const r = judgeOnDisk(
      AUTONOMOUS,
      { tool: "bash", input: { command: "cp -r plain backup" }, cwd: ws, workspace: ws },
      { disk: diskCheck({ env: { HOME: home }, walkBound: 2 }) },
    );
    expect(r.action).toBe("ask");
    expect(r.why).toContain("more than 2 names");
  });
});
