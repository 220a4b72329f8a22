// The agent's PATH through a directory of installed code in the project (an activated `.venv/bin`,
// `node_modules/.bin`): those directories are protected writes (the agent cannot change them unasked), so a
// program found there is what the person installed, as npx takes a node_modules bin, and a Python
// developer's activated virtualenv does not make every `pytest` ask. What the repository itself tracks there
// is its code (a committed venv or node_modules), and asks as any project file on PATH does (round 14).
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { AUTONOMOUS } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

let base: string;
let ws: string;
const SYSTEM = "/usr/local/bin:/usr/bin:/bin";

function program(rel: string): void {
  writeFileSync(join(ws, rel), "#!/bin/sh\necho ran\n");
  chmodSync(join(ws, rel), 0o755);
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-rt14-installed-")));
  ws = join(base, "ws");
  mkdirSync(join(ws, ".venv", "bin"), { recursive: true });
  mkdirSync(join(ws, "node_modules", ".bin"), { recursive: true });
  mkdirSync(join(ws, "bin"), { recursive: true });
  writeFileSync(join(ws, ".venv", "pyvenv.cfg"), "home = /usr/bin\n");
  symlinkSync("/usr/bin/python3", join(ws, ".venv", "bin", "python3"));
  program(".venv/bin/pytest");
  program("node_modules/.bin/vitest");
  program("bin/pytest");
  writeFileSync(join(ws, "test_a.py"), "def test_a():\n    assert True\n");
  git(ws, "init", "-q");
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function judge(command: string, path: string) {
  const disk = diskCheck({ env: { HOME: join(base, "home"), PATH: path } });
  return judgeOnDisk(
    AUTONOMOUS,
    { tool: "bash", input: { command }, cwd: ws, home: join(base, "home") },
    { disk },
  );
}

describe("PATH through the project's installed code", () => {
  it("an activated virtualenv's and node_modules' programs run as installed", () => {
    writeFileSync(join(ws, ".gitignore"), ".venv/\nnode_modules/\n");
    const path = `${join(ws, ".venv", "bin")}:${join(ws, "node_modules", ".bin")}:${SYSTEM}`;
    for (const command of ["pytest", "pytest -q test_a.py", "vitest --version", "ls"]) {
      const r = judge(command, path);
      expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
    }
  });

  it("a project directory that is not installed code still asks (written first)", () => {
    const r = judge("pytest", `${join(ws, "bin")}:${SYSTEM}`);
    expect(r.action, r.why).toBe("ask");
  });

  it("a committed virtualenv is the repository's code and asks", () => {
    git(ws, "add", "-f", ".venv/bin/pytest", ".venv/pyvenv.cfg");
    git(ws, "commit", "-qm", "commit the venv");
    const r = judge("pytest", `${join(ws, ".venv", "bin")}:${SYSTEM}`);
    expect(r.action, r.why).toBe("ask");
    expect(r.why).toMatch(/tracks/);
  });

  it("a command that writes into the installed directory first still asks", () => {
    const r = judge("cp test_a.py .venv/bin/pytest; pytest", `${join(ws, ".venv", "bin")}:${SYSTEM}`);
    expect(r.action, r.why).not.toBe("allow");
  });
});
