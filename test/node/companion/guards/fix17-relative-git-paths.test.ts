// Never (after red team round 16, fix17a): a relative path in the user's git configuration names a file of
// every repository. `core.hooksPath = tools/hooks` runs tools/hooks/pre-commit from the top of whichever
// work tree git runs in, and `core.fsmonitor = tools/fsmon` runs tools/fsmon at every `git status` (proven
// with real git, run from a subdirectory too); round 16 only followed absolute ones, so writing those files
// in the workspace was an ordinary edit. They are now protected where the path is in a work tree (the
// workspace's repository and any below it); the same names outside a work tree's top, or under a home that
// names nothing, stay writable.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { AUTONOMOUS } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk, write } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-fix17-relgit-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const ws = join(base, "ws");
write(join(ws, "README.md"), "# app\n");
git(ws, "init", "-q");
write(join(ws, "vendor", "lib", "README.md"), "# lib\n");
git(join(ws, "vendor", "lib"), "init", "-q");

const home = join(base, "home");
write(
  join(home, ".gitconfig"),
  [
    "[core]",
    "\thooksPath = tools/hooks",
    "\tfsmonitor = tools/fsmon",
    "\tsshCommand = ssh -F conf/ssh_config",
    "[gpg]",
    "\tprogram = ./bin/gpg-wrap",
    "[credential]",
    '\thelper = "!scripts/cred.sh get"',
    "[include]",
    "\tpath = ../ws/git.inc",
    "",
  ].join("\n"),
);
const plainHome = join(base, "plain-home");
mkdirSync(plainHome);

const judge = (tool: string, input: Record<string, unknown>, h = home) =>
  judgeOnDisk(
    AUTONOMOUS,
    { tool, input, cwd: ws, workspace: ws },
    { disk: diskCheck({ env: { HOME: h, PATH: process.env.PATH } }) },
  );

const NAMED: [string, Record<string, unknown>][] = [
  ["write", { file_path: join(ws, "tools", "hooks", "pre-commit"), content: "cat ~/.netrc\n" }],
  ["bash", { command: "echo 'cat ~/.netrc' > tools/hooks/post-checkout" }],
  ["write", { file_path: join(ws, "tools", "fsmon"), content: "#!/bin/sh\n" }],
  ["write", { file_path: join(ws, "conf", "ssh_config"), content: "Host *\n ProxyCommand x\n" }],
  ["write", { file_path: join(ws, "bin", "gpg-wrap"), content: "#!/bin/sh\n" }],
  ["bash", { command: "printf '#!/bin/sh\\n' > scripts/cred.sh" }],
  ["write", { file_path: join(ws, "git.inc"), content: "[core]\n\tpager = x\n" }],
  // A repository below the workspace runs its own tools/hooks.
  ["write", { file_path: join(ws, "vendor", "lib", "tools", "hooks", "pre-push"), content: "x\n" }],
  // Replacing a directory on the way replaces the hooks.
  ["bash", { command: "mv scratch tools" }],
];

describe("fix17a: relative paths in the user's git configuration", () => {
  it("git itself runs a relative hooksPath and fsmonitor from the work tree's top", () => {
    write(join(ws, "tools", "hooks", "pre-commit"), "#!/bin/sh\necho hook-ran >&2\n");
    write(join(ws, "tools", "fsmon"), "#!/bin/sh\necho fsmon-ran >&2\n");
    chmodSync(join(ws, "tools", "hooks", "pre-commit"), 0o755);
    chmodSync(join(ws, "tools", "fsmon"), 0o755);
    mkdirSync(join(ws, "sub"), { recursive: true });
    const r = spawnSync(
      "git",
      ["-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "x"],
      {
        cwd: join(ws, "sub"),
        env: { HOME: home, GIT_CONFIG_NOSYSTEM: "1", PATH: process.env.PATH },
        encoding: "utf8",
      },
    );
    expect(r.stderr).toContain("fsmon-ran");
    expect(r.stderr).toContain("hook-ran");
  });

  it.each(NAMED)("%s %j asks", (tool, input) => {
    const r = judge(tool, input);
    expect(r.action, `${JSON.stringify(input)}\n${r.why}\n${r.reasons.join("\n")}`).toBe("ask");
    expect(r.why).toContain("~/.gitconfig");
  });

  it.each(NAMED.filter(([, input]) => !String(input.command ?? "").startsWith("mv")))(
    "%s %j is an ordinary write under a home that names nothing",
    (tool, input) => {
      expect(judge(tool, input, plainHome).action).toBe("allow");
    },
  );

  it("the repository's own relative core.hooksPath and fsmonitor (a setup script's `git config`) protect theirs", () => {
    const own = join(base, "own");
    write(join(own, "README.md"), "# own\n");
    git(own, "init", "-q");
    git(own, "config", "core.hooksPath", "scripts/git-hooks");
    git(own, "config", "core.fsmonitor", "tools/fsmon");
    const at = (rel: string) =>
      judgeOnDisk(
        AUTONOMOUS,
        { tool: "write", input: { file_path: join(own, rel), content: "x\n" }, cwd: own, workspace: own },
        { disk: diskCheck({ env: { HOME: plainHome, PATH: process.env.PATH } }) },
      );
    for (const rel of ["scripts/git-hooks/pre-commit", "tools/fsmon"]) {
      const r = at(rel);
      expect(r.action, `${rel}\n${r.why}`).toBe("ask");
      expect(r.why).toContain(".git/config");
    }
    expect(at("scripts/other.sh").action).toBe("allow");
  });

  it("the same names outside a work tree's top stay ordinary writes", () => {
    for (const path of [join(ws, "src", "tools", "hooks", "readme.md"), join(ws, "docs", "tools", "fsmon")])
      expect(judge("write", { file_path: path, content: "x" }).action, path).toBe("allow");
  });
});
