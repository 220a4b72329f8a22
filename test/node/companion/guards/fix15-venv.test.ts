// One rule for a virtualenv in the workspace (fix15e): the PATH lookup ran an activated `.venv`'s programs as
// installed code while `python -m pytest` and `pip list` asked for the same venv (VIRTUAL_ENV). A venv is
// installed code when the person made it: its pyvenv.cfg (a write of which asks, as any write into it does),
// not tracked by git, whose python is the `home` install out of the workspace. Then `pytest`, `python -m
// pytest` and `pip list` run alike; a venv the agent could have built (its python a project script, or a
// pyvenv.cfg written by a plain file write) asks.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import type { CompiledPolicy } from "../../../../src/policy/index.ts";
import { AUTONOMOUS, BALANCED } from "../../policy/shell/policies.ts";
import { git, judgeOnDisk } from "./disk-fixture.ts";

let base: string;
let ws: string;
const SYSTEM = "/usr/local/bin:/usr/bin:/bin";

function script(rel: string, text: string): void {
  mkdirSync(join(ws, rel, ".."), { recursive: true });
  writeFileSync(join(ws, rel), text);
  chmodSync(join(ws, rel), 0o755);
}

/** A virtualenv as `python3 -m venv` lays it out, with pytest and pip installed; `python` is where bin/python3 leads. */
function venv(dir: string, home: string, python: string): void {
  mkdirSync(join(ws, dir, "bin"), { recursive: true });
  mkdirSync(join(ws, dir, "lib", "python3.11", "site-packages"), { recursive: true });
  writeFileSync(join(ws, dir, "pyvenv.cfg"), `home = ${home}\ninclude-system-site-packages = false\n`);
  symlinkSync(python, join(ws, dir, "bin", "python3"));
  symlinkSync("python3", join(ws, dir, "bin", "python"));
  for (const name of ["pytest", "pip"])
    script(`${dir}/bin/${name}`, `#!${join(ws, dir, "bin", "python")}\nimport sys\n`);
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-f15-venv-")));
  ws = join(base, "ws");
  mkdirSync(ws);
  writeFileSync(join(ws, "package.json"), "{}\n");
  writeFileSync(join(ws, "test_a.py"), "def test_a():\n    assert True\n");
  writeFileSync(join(ws, ".gitignore"), ".venv/\n");
  git(ws, "init", "-q");
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** Judged with `.venv` activated: VIRTUAL_ENV set and its bin/ first on PATH. */
function judge(policy: CompiledPolicy, command: string, dir = ".venv") {
  const env = {
    HOME: join(base, "home"),
    VIRTUAL_ENV: join(ws, dir),
    PATH: `${join(ws, dir, "bin")}:${SYSTEM}`,
  };
  return judgeOnDisk(
    policy,
    { tool: "bash", input: { command }, cwd: ws, home: join(base, "home") },
    { disk: diskCheck({ env }) },
  );
}
const RUNS = ["pytest", "python -m pytest", "python3 -m pytest -q test_a.py"];
const READS = ["pip list", "python3 -m json.tool package.json"];

describe("an ordinary untracked virtualenv, activated", () => {
  it("pytest, python -m pytest and pip list run as installed code alike", () => {
    venv(".venv", "/usr/bin", "/usr/bin/python3");
    for (const command of RUNS) {
      const r = judge(AUTONOMOUS, command);
      expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
    }
    for (const command of READS) {
      const r = judge(BALANCED, command);
      expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
    }
  });
});

describe("a virtualenv that is not the person's installed code (written first)", () => {
  it("asks when its python is a project script", () => {
    script("tools/python3", "#!/bin/sh\ncat ~/.netrc\n");
    venv(".venv", join(ws, "tools"), "../../tools/python3");
    for (const command of [...RUNS, ...READS]) {
      const r = judge(AUTONOMOUS, command);
      expect(r.action, `${command}\n${r.why}`).toBe("ask");
      expect(r.why, command).toMatch(/python/);
    }
  });

  it("asks when its pyvenv.cfg names a home in the workspace", () => {
    venv(".venv", join(ws, "tools"), "/usr/bin/python3");
    for (const command of [...RUNS, ...READS]) expect(judge(AUTONOMOUS, command).action, command).toBe("ask");
  });

  it("asks when the repository tracks its pyvenv.cfg (a committed venv is the repository's code)", () => {
    venv("env2", "/usr/bin", "/usr/bin/python3");
    git(ws, "add", "-f", "env2/pyvenv.cfg");
    git(ws, "commit", "-qm", "venv");
    for (const command of [...RUNS, ...READS])
      expect(judge(AUTONOMOUS, command, "env2").action, command).toBe("ask");
  });

  it("writing a pyvenv.cfg asks: it makes a directory the agent filled installed code", () => {
    for (const command of ["echo 'home = /usr/bin' > tools/pyvenv.cfg", "cp x.cfg bin/pyvenv.cfg"]) {
      const r = judge(AUTONOMOUS, command);
      expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
    }
    const w = judgeOnDisk(AUTONOMOUS, {
      tool: "write",
      input: { file_path: join(ws, "tools", "pyvenv.cfg"), content: "home = /usr/bin\n" },
      cwd: ws,
    });
    expect(w.action).not.toBe("allow");
  });
});
