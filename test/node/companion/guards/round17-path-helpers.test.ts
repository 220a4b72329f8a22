// Red team rounds 16/17 (fix17b): `cargo -vV` runs lsb_release and getconf, and `go env` runs gcc (which
// runs as and ld), each found on PATH: with the project's bin/ on the agent's PATH, an allowed version
// query ran the repository's own `bin/lsb_release`. The PATH lookup now covers the helpers a program runs
// by bare name, as it covers the program's own (path-lookup.ts). Real runs, under strace's eye, are the proof.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-r17-helpers-")));
const home = join(base, "home");
const ws = join(base, "ws");
const SYSTEM = process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin";
afterAll(() => rmSync(base, { recursive: true, force: true }));

mkdirSync(home, { recursive: true });
mkdirSync(join(ws, "bin"), { recursive: true });
writeFileSync(join(ws, "README.md"), "# project\n");
for (const name of ["lsb_release", "getconf", "gcc", "as", "ld", "tr", "grep", "sort"]) {
  const path = join(ws, "bin", name);
  // Marks that it ran, then hands over to the real program so the caller goes on as usual.
  writeFileSync(path, `#!/bin/sh\ntouch "${base}/ran-${name}"\nPATH=${SYSTEM}\nexec ${name} "$@"\n`);
  chmodSync(path, 0o755);
}
git(ws, "init", "-q");

const projectPath = `${join(ws, "bin")}:${SYSTEM}`;
const judge = (command: string, path: string) =>
  judgeOnDisk(
    BALANCED,
    { tool: "bash", input: { command }, cwd: ws, home },
    { disk: diskCheck({ env: { HOME: home, PATH: path } }) },
  );
const installed = (program: string) => spawnSync("sh", ["-c", `command -v ${program}`]).status === 0;

describe("a program's helpers found on PATH in the project", () => {
  it.each([
    ["cargo -vV", "lsb_release"],
    ["cargo --version --verbose", "lsb_release"],
    ["cargo +stable version -v", "lsb_release"],
    ["lsb_release -a", "tr"],
    ["go env", "gcc"],
    ["go env -json", "gcc"],
    // Round 23b: Debian's egrep/fgrep exec grep; git difftool --tool-help runs git-mergetool--lib's helpers.
    ["egrep x README.md", "grep"],
    ["fgrep -i x README.md", "grep"],
    ["git difftool --tool-help", "sort"],
  ])("%s runs the project's %s, and asks", (command, helper) => {
    const r = judge(command, projectPath);
    expect(r.action, r.why).toBe("ask");
    expect(r.why).toContain(helper);
  });

  it.each([
    ["cargo", "cargo -vV", "lsb_release"],
    ["go", "go env", "gcc"],
    // The system's own lsb_release (the project's bin/ has one first), which runs tr by PATH.
    ["lsb_release", `"$(PATH=${SYSTEM} command -v lsb_release)" -a`, "tr"],
    ["egrep", "egrep x README.md", "grep"],
    ["git", "git difftool --tool-help", "sort"],
  ])("real %s: `%s` runs bin/%s", (program, command, helper) => {
    if (!installed(program)) return;
    spawnSync("sh", ["-c", command], { cwd: ws, env: { HOME: process.env.HOME, PATH: projectPath } });
    expect(existsSync(join(base, `ran-${helper}`))).toBe(true);
  });

  it.each([
    ["cargo --version", projectPath],
    ["cargo -V", projectPath],
    ["go env GOPATH", projectPath],
    ["go version", projectPath],
    ["cargo -vV", SYSTEM],
    ["go env", SYSTEM],
    ["egrep x README.md", SYSTEM],
    ["git difftool --tool-help", SYSTEM],
  ])("%s (no helper, or a PATH out of the project) is allowed", (command, path) => {
    const r = judge(command, path);
    expect(r.action, r.why).toBe("allow");
  });
});
