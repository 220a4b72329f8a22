// Round 19's over-asks (fix20d): `python3 -c "import sys; print(sys.version)"` asked as inline code, and
// `python3 -m pydoc json` as a run of the project. The first imports nothing (sys is builtin, and the
// working directory goes on sys.path only after site has run: proven below, a `./sitecustomize.py` and a
// `./sys.py` stay unrun), so it is judged as `python3 -m json.tool` is: allowed, unless what site loads is
// the workspace's (a venv there, PYTHONPATH into it). pydoc imports the module it documents, and itself,
// from the working directory first (proven below: a project's `json.py` and `pydoc.py` ran), so it keeps
// asking; so does any other `-c` code.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { profileActions, RUN, runPython, workspacesUnder } from "./python-proof.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa19py-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const workspace = workspacesUnder(base);

const actions = profileActions(base);

const py = (ws: string, ...args: string[]) => runPython(base, ws, ...args);

const VERSION = 'python3 -c "import sys; print(sys.version)"';

describe("python3 -c printing a fact of sys", () => {
  it.each([
    VERSION,
    "python3 -c 'import sys;print(sys.version_info[:2])'",
    'python3 -c "import sys; print(sys.executable)"',
    'python -c "import sys; print(sys.version_info)"',
  ])("%s is allowed under every profile", (command) => {
    expect(actions(command, workspace())).toEqual(["allow", "allow", "allow"]);
  });

  it("runs nothing of the working directory (the proof)", () => {
    const ws = workspace({ "sitecustomize.py": RUN, "usercustomize.py": RUN, "sys.py": RUN });
    const r = py(ws, "-c", "import sys; print(sys.version)");
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain("PROJECT CODE RAN");
    expect(r.stdout).toContain(".");
  });

  it("asks while site would load the workspace's code", () => {
    const ws = workspace({ ".venv/pyvenv.cfg": "home = /usr/bin\n", "lib/x.py": "" });
    mkdirSync(join(ws, ".venv", "bin"), { recursive: true });
    writeFileSync(join(ws, ".venv", "bin", "python3"), "#!/bin/sh\n", { mode: 0o755 });
    for (const env of [
      { VIRTUAL_ENV: join(ws, ".venv") },
      { PYTHONPATH: join(ws, "lib") },
      { PATH: `${join(ws, ".venv", "bin")}:/usr/bin:/bin` },
    ])
      expect(actions(VERSION, ws, env), JSON.stringify(env)).not.toContain("allow");
  });

  it.each([
    'python3 -c "import sys; print(sys.version); import os"',
    'python3 -c "import os; print(os.environ)"',
    'python3 -c "import sys; print(sys.path)"',
    'python3 -i -c "import sys; print(sys.version)"',
    'python3 -c "import sys; print(sys.version)" extra',
    'python3 -c "import platform; print(platform.python_version())"',
  ])("%s still asks", (command) => {
    expect(actions(command, workspace())).not.toContain("allow");
  });
});

describe("python3 -m pydoc imports from the working directory first", () => {
  it("a project's json.py and pydoc.py run (the proof)", () => {
    expect(py(workspace({ "json.py": RUN }), "-m", "pydoc", "json").stdout).toContain("PROJECT CODE RAN");
    expect(py(workspace({ "pydoc.py": RUN }), "-m", "pydoc", "json").stdout).toContain("PROJECT CODE RAN");
  });

  it("so python3 -m pydoc json still asks", () => {
    expect(actions("python3 -m pydoc json", workspace())).not.toContain("allow");
  });
});
