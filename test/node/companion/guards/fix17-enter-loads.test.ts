// Never (after red team rounds 16/17, fix17a): what a shell loads when it starts or enters the project, besides
// the start-up files themselves. A `.envrc` with `PATH_add bin` (or mise's `_.path`, or `export
// PATH="…/tools:$PATH"` in ~/.bashrc) makes every file in bin/ the person's program of that name on the next
// cd, and `use flake` evaluates flake.nix there; writing bin/git or flake.nix was an ordinary edit, while
// direnv's allow covers only the .envrc's own text. So were zsh-autoenv's, RVM's and rbenv-vars' files.
// Each now asks; other writes in the same project stay allowed.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { AUTONOMOUS } from "../../policy/shell/policies.ts";
import { judgeOnDisk, write } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-fix17-enter-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const direnv = join(base, "direnv");
write(
  join(direnv, ".envrc"),
  [
    "PATH_add bin",
    "use flake",
    'export PYTHONPATH="$PWD/lib:$PYTHONPATH"',
    "source_env_if_exists .envrc.private",
    "if has nix; then PATH_add tools; fi",
    "",
  ].join("\n"),
);
mkdirSync(join(direnv, "bin"));
write(join(direnv, "packages", "api", ".envrc"), "PATH_add scripts\n");

const mise = join(base, "mise");
write(
  join(mise, "mise.toml"),
  [
    "[env]",
    '_.path = ["./tools/bin"]',
    '_.source = "scripts/env.sh"',
    "[hooks]",
    'enter = "bash scripts/enter.sh"',
    "[tasks.build]",
    'run = "bash scripts/build.sh"',
    "",
  ].join("\n"),
);

const plain = join(base, "plain");
mkdirSync(plain);

const home = join(base, "home");
write(
  join(home, ".bashrc"),
  [
    `export PATH="${plain}/tools:$PATH"`,
    "PATH=$PATH:scripts/bin",
    'export PATH="$JAVA_HOME/bin:$HOME/.local/bin:$PATH"',
    "",
  ].join("\n"),
);
const plainHome = join(base, "plain-home");
mkdirSync(plainHome);

const judge = (ws: string, tool: string, input: Record<string, unknown>, h = plainHome) =>
  judgeOnDisk(
    AUTONOMOUS,
    { tool, input, cwd: ws, workspace: ws },
    { disk: diskCheck({ env: { HOME: h, PATH: "/usr/bin:/bin" } }) },
  );
const writeAt = (ws: string, rel: string, h = plainHome) =>
  judge(ws, "write", { file_path: join(ws, rel), content: "#!/bin/sh\n" }, h);

describe("fix17a: what a shell loads on entering the project", () => {
  it.each([
    ["bin/git", /`bin`, which `.envrc`/],
    ["bin/sub/tool", /`bin`/],
    ["lib/os.py", /`lib`/],
    ["tools/make", /`tools`/],
    // A package's own .envrc, loaded when the shell enters that package.
    ["packages/api/scripts/node", /`packages\/api\/scripts`, which `packages\/api\/\.envrc`/],
    ["flake.nix", /`flake\.nix`.*evaluates/],
    [".envrc.private", /.envrc/],
  ])("direnv: writing %s asks", (rel, why) => {
    const r = writeAt(direnv, rel);
    expect(r.action, `${rel}\n${r.why}`).toBe("ask");
    expect(r.why).toMatch(why);
  });

  it("direnv: replacing the PATH directory asks, by the shell too", () => {
    const r = judge(direnv, "bash", { command: "mkdir -p scratch && mv scratch bin" });
    expect(r.action, r.why).toBe("ask");
    expect(judge(direnv, "bash", { command: "echo 'exec x' > bin/ls" }).action).toBe("ask");
  });

  it.each([
    ["tools/bin/ls", /`tools\/bin`, which `mise\.toml`/],
    ["scripts/env.sh", /`scripts\/env\.sh`.*evaluates/],
    ["scripts/enter.sh", /bash scripts\/enter\.sh/],
  ])("mise: writing %s asks", (rel, why) => {
    const r = writeAt(mise, rel);
    expect(r.action, `${rel}\n${r.why}`).toBe("ask");
    expect(r.why).toMatch(why);
  });

  it.each([
    ".autoenv.zsh",
    ".autoenv_leave.zsh",
    ".rvmrc",
    ".versions.conf",
    ".ruby-env",
    ".rbenv-vars",
    ".lvimrc",
  ])("%s, loaded on entering the directory, asks", (rel) => {
    expect(writeAt(plain, rel).action).toBe("ask");
  });

  it("~/.bashrc's PATH entries: a project directory on it, and a relative one anywhere, ask", () => {
    for (const rel of ["tools/ls", "app/scripts/bin/git"]) {
      const r = writeAt(plain, rel, home);
      expect(r.action, `${rel}\n${r.why}`).toBe("ask");
      expect(r.why).toContain("on PATH");
    }
  });

  it.each([
    [direnv, "src/main.py"],
    [direnv, "docs/bin/notes.md"],
    [direnv, "packages/web/scripts/node"],
    [mise, "scripts/build.sh"],
    [mise, "tools/readme.md"],
    [plain, ".swift-version"],
    [plain, "bin/dev"],
  ])("%s: writing %s stays allowed", (ws, rel) => {
    const r = writeAt(ws, rel, home);
    expect(r.action, `${rel}\n${r.why}`).toBe("allow");
  });
});
