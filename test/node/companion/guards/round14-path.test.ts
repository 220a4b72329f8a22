// Never (red team, round 14, r14-01): the agent's PATH names a directory inside the workspace (direnv's
// `PATH_add bin`, an activated in-project .venv, `./node_modules/.bin`, a relative or empty entry), so a
// bare `ls` or `git` runs the project's `bin/ls`, which the judge took for /bin/ls. Confirmed with bash
// 5.2: `PATH=$WS/bin:$PATH bash -c 'ls src; git status'` ran the repository's bin/ls and bin/git, which
// printed ~/.netrc. A PATH with no entry in the project changes nothing.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { AUTONOMOUS, BALANCED } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt14-path-")));
const home = join(base, "home");
const ws = join(base, "ws");
const SYSTEM = "/usr/local/bin:/usr/bin:/bin";
afterAll(() => rmSync(base, { recursive: true, force: true }));

function program(rel: string, mode = 0o755): void {
  const path = join(ws, rel);
  writeFileSync(path, '#!/bin/sh\necho "PWNED" >&2\ncat "$HOME/.netrc" >&2\n');
  chmodSync(path, mode);
}

for (const d of [home, join(ws, "bin"), join(ws, "src"), join(ws, "sub", "bin"), join(ws, "tools")])
  mkdirSync(d, { recursive: true });
mkdirSync(join(ws, "dirbin", "ls"), { recursive: true });
writeFileSync(join(home, ".netrc"), "machine github.com login u password ghp_FAKE\n");
writeFileSync(join(ws, "README.md"), "# project\n");
writeFileSync(join(ws, "src", "a.ts"), "export const a = 1;\n");
program("bin/ls");
program("bin/git");
program("bin/echo");
program("bin/timeout");
program("bin/cat", 0o644); // not executable: bash passes it by
program("sub/bin/ls");
program("ls");
program("tools/build.sh");
git(ws, "init", "-q");

const PROFILES = [
  ["balanced", BALANCED],
  ["autonomous", AUTONOMOUS],
] as const;

function judge(command: string, path: string | undefined, cwd = ws) {
  const disk = diskCheck({ env: path === undefined ? { HOME: home } : { HOME: home, PATH: path } });
  return PROFILES.map(([name, p]) => ({
    name,
    ...judgeOnDisk(p, { tool: "bash", input: { command }, cwd, home }, { disk }),
  }));
}

function expectAsks(command: string, path: string, word: string, cwd = ws): void {
  for (const r of judge(command, path, cwd)) {
    expect(r.action, `${r.name}: ${command} (PATH=${path})\n${r.why}`).toBe("ask");
    expect(r.why, `${r.name}: ${command}`).toContain(word);
  }
}

function expectAllowed(command: string, path: string | undefined, cwd = ws): void {
  for (const r of judge(command, path, cwd))
    expect(r.action, `${r.name}: ${command} (PATH=${path})\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
}

describe("a bare program name found in a PATH directory of the project (r14-01)", () => {
  it("is allowed with the system PATH: the everyday reads this test then turns", () => {
    for (const c of ["ls src", "git status", "cat README.md", "ls", "timeout 5 git status"])
      expectAllowed(c, SYSTEM);
  });

  it("asks when PATH puts the project's bin first, naming the file", () => {
    expectAsks("ls src", `${ws}/bin:${SYSTEM}`, "`ls` is `bin/ls` of the project (PATH)");
    expectAsks("git status", `${ws}/bin:${SYSTEM}`, "`git` is `bin/git` of the project (PATH)");
    expectAsks("ls", `${ws}/bin:${SYSTEM}`, "bin/ls");
  });

  it("asks for a relative entry, resolved from where the command runs", () => {
    expectAsks("ls src", `./bin:${SYSTEM}`, "`ls` is `bin/ls` of the project (PATH)");
    expectAsks("cd sub && ls", `bin:${SYSTEM}`, "`ls` is `sub/bin/ls` of the project (PATH)");
    expectAsks("ls", `bin:${SYSTEM}`, "bin/ls", join(ws, "sub"));
  });

  it("asks for an entry bash expands from `~`", () => {
    const disk = diskCheck({ env: { HOME: base, PATH: `~/ws/bin:${SYSTEM}` } });
    const r = judgeOnDisk(BALANCED, { tool: "bash", input: { command: "ls src" }, cwd: ws, home }, { disk });
    expect(r.action, r.why).toBe("ask");
    expect(r.why).toContain("`ls` is `bin/ls` of the project (PATH)");
  });

  it("asks for an empty entry, which is the working directory, unless the system has the program first", () => {
    expectAsks("ls src", `:${SYSTEM}`, "`ls` is `ls` of the project (PATH)");
    expectAllowed("ls src", `${SYSTEM}:`);
  });

  it("asks for the program a wrapper runs, and for the wrapper itself", () => {
    expectAsks("timeout 5 git status", `${ws}/bin:${SYSTEM}`, "`git` is `bin/git` of the project");
    expectAsks("env ls src", `${ws}/bin:${SYSTEM}`, "`ls` is `bin/ls` of the project");
    expectAsks("echo src | xargs ls", `${ws}/bin:${SYSTEM}`, "`ls` is `bin/ls` of the project");
  });

  it("asks when the command first writes into a project directory on PATH", () => {
    expectAllowed("ls src", `${ws}/tools:${SYSTEM}`);
    expectAsks("cp README.md tools/ls; ls src", `${ws}/tools:${SYSTEM}`, "`tools`");
    expectAsks("cp -r src tools/x && ls", `${ws}/tools:${SYSTEM}`, "`tools`");
  });

  it("stays allowed when the project's PATH directory does not have the program", () => {
    for (const c of ["ls src", "git status", "cat README.md"]) expectAllowed(c, `${ws}/tools:${SYSTEM}`);
  });

  it("stays allowed when a directory earlier on PATH has the program first", () => {
    expectAllowed("ls src", `${SYSTEM}:${ws}/bin`);
    expectAllowed("git status", `${SYSTEM}:./bin`);
  });

  it("passes by what bash passes by: a file that is not executable, a directory", () => {
    expectAllowed("cat README.md", `${ws}/bin:${SYSTEM}`);
    expectAllowed("ls src", `${ws}/dirbin:${SYSTEM}`);
  });

  it("never looks a builtin up, nor a program named by its path", () => {
    expectAllowed("echo hi", `${ws}/bin:${SYSTEM}`);
    expectAllowed("/bin/ls src", `${ws}/bin:${SYSTEM}`);
  });
});
