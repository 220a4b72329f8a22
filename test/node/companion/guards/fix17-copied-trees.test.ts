// Never (after red team rounds 16/17, fix17a): a tree copied or moved whole lands with every name it holds,
// and only its top was judged. In a workspace with tmpl/.vscode/tasks.json, `cp -r tmpl newdir` made
// newdir/.vscode/tasks.json (run when the folder is opened) and was allowed under autonomous; so were
// `mv tmpl/.vscode sub/` and `cp -a tmpl/. sub`. Each name below the source is now judged where it lands;
// copying an ordinary tree stays allowed.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
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
// Archives made by the real tar: one holding tmpl's tree, one of an ordinary tree, one whose `git/config` lands
// in .config only with --strip-components, and an xz one Airlock cannot list.
const tar = (...args: string[]) => execFileSync("tar", args, { cwd: ws });
tar("-cf", "tmpl.tar", "-C", "tmpl", ".");
tar("-czf", "tmpl.tgz", "-C", "tmpl", ".");
tar("-cf", "plain.tar", "-C", "plain", ".");
tar("-czf", "plain.tgz", "-C", "plain", ".");
write(join(ws, "stage", "pkg", "git", "config"), "[core]\n\tfsmonitor = x\n");
tar("-cf", "nested.tar", "-C", "stage", "pkg");
writeFileSync(join(ws, "tools.tar.xz"), Buffer.from("fd377a585a000004e6d6b446", "hex"));
mkdirSync(join(ws, ".config"), { recursive: true });

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

  it.each([
    ["tar -xf tmpl.tar", /lands as `\.vscode\/tasks\.json`/],
    ["tar -xzf tmpl.tgz -C sub", /lands as `sub\/\.husky\/pre-commit`|lands as `sub\/\.vscode/],
    ["tar -xf nested.tar -C .config --strip-components=1", /lands as `\.config\/git\/config`/],
    ["tar -xJf tools.tar.xz", /not a tar \(plain or gzip\) Airlock can list/],
    ["cat tmpl.tar | tar -xf -", /member names .* are not known here/],
    ["tar --xform s,^,x/, -xf plain.tar", /member names .* are not known here/],
    ["tar -xPf plain.tar", /member names .* are not known here/],
  ])("%s (an extraction) asks", (command, why) => {
    const r = judge(command);
    expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("ask");
    expect(r.why).toMatch(why);
  });

  it.each(["tar -xf plain.tar -C sub", "tar -xzf plain.tgz -C sub", "tar -C sub -xf plain.tar"])(
    "%s (an ordinary archive) stays allowed",
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
