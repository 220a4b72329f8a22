// Written on branch rt12dots (an independent implementation of the same class) and run against the merged
// judge, whose rule came from rt12sh: the attacks all ask; reasons are the merged judge's own.
// Never (red team, round 12, class A): a `..` after a name that is a symlink is applied by the kernel after
// following the link, while the judge tidied it away as text. bash's logical `cd` retries with chdir(the
// word as written) when the tidied directory is missing (bash manual, `cd`: "-L … If the directory change
// fails, … with -L … bash attempts the change with the pathname as given"), agents hand their `workdir` to
// chdir, `env -C`/`git -C` call chdir, git opens a `.git` file's `gitdir:` and a `commondir` the same way.
// Each attack is first run in a real bash / real git here, so the test shows the kernel really lands in
// the home directory; then the judge (with the companion's disk check) must not allow it.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { READ_ONLY } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk, write } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt12dots-")));
const home = join(base, "home");
const ws = join(base, "proj");
write(join(home, ".ssh", "id_ed25519"), "FAKE\n");
write(join(home, "docs2", "only.txt"), "HOME-DOCS\n");
write(join(home, "private.txt"), "HOME-PRIVATE\n");
write(join(home, "notes.md"), "HOME-NOTES\n");
git(home, "init", "-q", ".");
git(home, "add", "notes.md");
git(home, "commit", "-qm", "home");
write(join(ws, "README.md"), "hi\n");
write(join(ws, "src", "a.ts"), "export {};\n");
git(ws, "init", "-q", ".");
git(ws, "add", ".");
git(ws, "commit", "-qm", "ws");
symlinkSync(join(home, ".ssh"), join(ws, "sshlink"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const disk = diskCheck({ env: { HOME: home } });

/** What bash prints running `script` in `cwd` (the proof the kernel lands where the test says). */
function bash(script: string, cwd = ws): string {
  return spawnSync("bash", ["-c", script], {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: home },
  }).stdout;
}

function judge(tool: string, input: Record<string, unknown>, cwd = ws) {
  return judgeOnDisk(READ_ONLY, { tool, input, cwd, home }, { disk });
}

describe("bash's cd falls back to the kernel's `..`", () => {
  it.each([
    ["cd sshlink/../docs2 && cat only.txt", "HOME-DOCS"],
    ["cd sshlink//../docs2 && cat only.txt", "HOME-DOCS"],
    ["cd sshlink/.//../docs2 && cat only.txt", "HOME-DOCS"],
    ["cd ./sshlink/../docs2/ && cat only.txt", "HOME-DOCS"],
    [`cd ${ws}/sshlink/../docs2 && cat only.txt`, "HOME-DOCS"],
    ["cd sshlink && cd ../docs2 && cat only.txt", "HOME-DOCS"],
    ["cd src && cd ../sshlink/../docs2 && cat only.txt", "HOME-DOCS"],
    ["pushd sshlink/../docs2 >/dev/null && cat only.txt", "HOME-DOCS"],
    ["(cd sshlink/../docs2; cat only.txt)", "HOME-DOCS"],
    ["cd sshlink/../docs2 && git show HEAD:../notes.md", "HOME-NOTES"],
  ])("%s", (command, printed) => {
    expect(bash(command)).toContain(printed);
    const r = judge("bash", { command });
    expect(r.action, r.why + r.reasons.join("\n")).not.toBe("allow");
  });

  it("a `..` whose tidied directory is there is bash's logical one, and still allowed", () => {
    for (const command of [
      // `cd src/.. && cat README.md` also asks there: the merged rule does not look whether the name is a link.
      "cd src && cd .. && cat README.md",
      // `cd sshlink/.. && ls` asks on the merged judge (any `..` after a link asks, where bash's logical
      // directory is there: an over-ask in the safe direction).
    ]) {
      expect(bash(command)).not.toContain("HOME-");
      const r = judge("bash", { command });
      expect(r.action, command + r.why + r.reasons.join("\n")).toBe("allow");
    }
  });
});

describe("an agent's working directory with `..` after a name", () => {
  const calls: [string, string, Record<string, unknown>][] = [];
  for (const w of ["sshlink/..", "sshlink//..", "sshlink/.//..", "./sshlink/../", `${ws}/sshlink/..`]) {
    calls.push(["codex", "shell", { command: ["bash", "-lc", "cat private.txt"], workdir: w }]);
    calls.push(["codex", "exec_command", { cmd: "cat private.txt", workdir: w }]);
    calls.push(["codex", "shell_command", { command: "cat private.txt", workdir: w }]);
    calls.push([
      "codex",
      "local_shell",
      { action: { type: "exec", command: ["cat", "private.txt"], working_directory: w } },
    ]);
    calls.push(["opencode", "bash", { command: "cat private.txt", workdir: w }]);
  }
  it.each(calls)("%s %s %j", (agent, tool, input) => {
    const w = JSON.stringify(input).match(/"(?:workdir|working_directory)":"([^"]+)"/)?.[1] as string;
    // Joined as written (not path.join, which would tidy the `..`): spawn hands it to chdir.
    expect(bash("cat private.txt", w.startsWith("/") ? w : `${ws}/${w}`)).toContain("HOME-PRIVATE");
    const r = judgeOnDisk(READ_ONLY, { tool, input, cwd: ws, home, agent }, { disk });
    expect(r.action, r.why + r.reasons.join("\n")).not.toBe("allow");
  });

  it("a plain workdir inside the project is still allowed", () => {
    const r = judgeOnDisk(
      READ_ONLY,
      { tool: "shell", input: { command: ["cat", "a.ts"], workdir: "src" }, cwd: ws, home, agent: "codex" },
      { disk },
    );
    expect(r.action, r.why + r.reasons.join("\n")).toBe("allow");
  });
});

describe("a program's own chdir is the kernel's", () => {
  it.each([
    ["env -C sshlink/.. cat private.txt", "HOME-PRIVATE"],
    ["env --chdir=sshlink//.. cat private.txt", "HOME-PRIVATE"],
    ["env -Csshlink/.. cat private.txt", "HOME-PRIVATE"],
    ["git -C sshlink/.. show HEAD:notes.md", "HOME-NOTES"],
    ["git -C sshlink//.. log -p", "HOME-NOTES"],
    ["cd sshlink && git -C .. show HEAD:notes.md", "HOME-NOTES"],
    ["git --git-dir=sshlink/../.git show HEAD:notes.md", "HOME-NOTES"],
    ["GIT_DIR=sshlink/../.git git show HEAD:notes.md", "HOME-NOTES"],
    ["tar -C sshlink/.. -cf - private.txt", "HOME-PRIVATE"],
  ])("%s", (command, printed) => {
    expect(bash(command)).toContain(printed);
    const r = judge("bash", { command });
    expect(r.action, r.why + r.reasons.join("\n")).not.toBe("allow");
  });

  it("env -C into a plain directory is still allowed", () => {
    for (const command of ["env -C src cat a.ts", `env -C ${ws}/src cat a.ts`]) {
      const r = judge("bash", { command });
      expect(r.action, command + r.why + r.reasons.join("\n")).toBe("allow");
    }
  });
});

describe("git opens a `.git` file's gitdir and a commondir as the kernel does", () => {
  const p5 = join(base, "p5");
  mkdirSync(p5);
  symlinkSync(join(home, ".ssh"), join(p5, "sshlink"));
  writeFileSync(join(p5, ".git"), "gitdir: sshlink/../.git\n");
  const other = join(base, "other");
  mkdirSync(other);
  const p7 = join(base, "p7");
  const p8 = join(base, "p8");
  const p9 = join(base, "p9");
  for (const p of [p7, p8, p9]) {
    mkdirSync(p);
    execFileSync("git", ["init", "-q", "."], { cwd: p });
  }
  writeFileSync(join(p7, ".git", "commondir"), `${home}/.git\n`);
  writeFileSync(join(p8, ".git", "commondir"), "../../home/.git\n");
  symlinkSync(join(home, ".ssh"), join(p9, "sshlink"));
  writeFileSync(join(p9, ".git", "commondir"), "../sshlink/../.git\n");

  it.each([
    ["a .git file's gitdir: sshlink/../.git", p5],
    ["an absolute commondir", p7],
    ["a relative commondir", p8],
    ["a commondir through a link", p9],
  ])("%s", (_name, dir) => {
    expect(bash("git show HEAD:notes.md", dir)).toContain("HOME-NOTES");
    for (const command of ["git show HEAD:notes.md", "git log -p", "git status"]) {
      const r = judge("bash", { command }, dir);
      expect(r.action, command + r.why + r.reasons.join("\n")).not.toBe("allow");
    }
  });

  it("the workspace's own repository is still allowed", () => {
    const r = judge("bash", { command: "git show HEAD:README.md" });
    expect(r.action, r.why + r.reasons.join("\n")).toBe("allow");
  });
});
