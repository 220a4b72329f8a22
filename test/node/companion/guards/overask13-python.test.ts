// Over-ask, round 13: `pip list`, `pip show requests`, `pip freeze`, `python3 -m pip list` and `python3 -m
// json.tool package.json` asked (pip had no grammar, and every `python -m` ran project code). pip's list, show
// and freeze only read installed metadata, and json.tool is the standard library's; but `-m` searches the
// directory python runs in first, so a project's `json.py`, `json/`, `argparse.py` or `pip/` runs instead
// (proven in real python below), and a python from a virtual environment in the workspace runs its .pth
// files and pip reads its pip.conf. Those are the disk's (guards/python-path.ts). Attacks first.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import { BALANCED, CAUTIOUS } from "../../policy/shell/policies.ts";
import { has } from "../../policy/shell/proven-case.ts";
import { judgeOnDisk } from "./disk-fixture.ts";
import { RUN, runPython, workspacesUnder } from "./python-proof.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "airlock-oa13py-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
/** A fresh workspace holding a package.json and `files`. */
const workspace = workspacesUnder(base, { "package.json": '{"name": "x"}\n' });

function judge(command: string, ws: string, env: NodeJS.ProcessEnv = {}) {
  const disk = diskCheck({ env });
  return [CAUTIOUS, BALANCED].map((p) =>
    judgeOnDisk(p, { tool: "bash", input: { command }, cwd: ws, home: join(base, "home") }, { disk }),
  );
}
const asks = (command: string, ws: string, env?: NodeJS.ProcessEnv) => {
  for (const r of judge(command, ws, env)) expect(r.action, `${command}\n${r.why}`).not.toBe("allow");
};
const allowed = (command: string, ws: string, env?: NodeJS.ProcessEnv) => {
  const r = judge(command, ws, env)[1];
  expect(r?.action, `${command}\n${r?.why}\n${r?.reasons.join("\n")}`).toBe("allow");
};

const py = (ws: string, ...args: string[]) => runPython(base, ws, ...args);
const SHADOWS: Record<string, Record<string, string>> = {
  "json.py": { "json.py": RUN },
  "a json/ package": { "json/__init__.py": RUN },
  "argparse.py (json.tool imports it)": { "argparse.py": RUN },
  "gettext.py (argparse imports it)": { "gettext.py": RUN },
};

describe("python -m with a module of the project's in the way (written first)", () => {
  it.each(Object.entries(SHADOWS))("%s: python3 -m json.tool asks, and real python runs it", (_, files) => {
    const ws = workspace(files);
    asks("python3 -m json.tool package.json", ws);
    if (has("python3"))
      expect(py(ws, "-m", "json.tool", "package.json").stdout).toContain("PROJECT CODE RAN");
  });

  it("a pip/ package: python3 -m pip list asks, and real python runs it", () => {
    const ws = workspace({ "pip/__init__.py": RUN, "pip/__main__.py": RUN });
    asks("python3 -m pip list", ws);
    if (has("python3")) expect(py(ws, "-m", "pip", "list").stdout).toContain("PROJECT CODE RAN");
  });

  it("a pip/ namespace directory (no __init__.py) asks too: python imports its submodules from it", () => {
    asks("python3 -m pip list", workspace({ "pip/__main__.py": RUN }));
  });

  it("a python or pip from a virtual environment in the workspace asks", () => {
    const ws = workspace({ ".venv/bin/": "" });
    writeFileSync(join(ws, ".venv", "bin", "pip"), "#!/bin/sh\n", { mode: 0o755 });
    asks("pip list", ws, { VIRTUAL_ENV: join(ws, ".venv") });
    asks("python3 -m json.tool package.json", ws, { VIRTUAL_ENV: join(ws, ".venv") });
    asks("pip list", ws, { PATH: `${join(ws, ".venv", "bin")}:/usr/bin` });
    asks("python3 -m json.tool package.json", ws, { PYTHONPATH: join(ws, "lib") });
    asks("pip list", ws, { PYTHONUSERBASE: join(ws, ".local") });
  });

  it.each([
    "pip install requests",
    "python3 -m pip install requests",
    "pip list -o",
    "pip list --outdated",
    "pip list -i https://example.com/simple",
    "pip list --python /tmp/py",
    "pip --log /tmp/log list",
    "pip freeze -r requirements.txt",
    "pip download x",
    "pip config list",
    "PIP_CONFIG_FILE=x.conf pip list",
    "PYTHONPATH=. python3 -m json.tool package.json",
    "python3 -i -m json.tool package.json",
    "python3 -m json.tool package.json ../out.json",
    "python3 -m json.tool .env",
    "python3 -m http.server",
  ])("never allows %s", (command) => asks(command, workspace({ ".env": "X=1\n" })));
});

describe("everyday", () => {
  it.each([
    "pip list",
    "pip show requests",
    "pip freeze",
    "python3 -m pip list",
    "python3 -m json.tool package.json",
    "pip list --format=json",
    "pip -q show -f pip",
    "python3 -P -m json.tool package.json",
  ])("allows %s in a project with a src/ and a test/ directory", (command) =>
    allowed(command, workspace({ "src/app.py": "", "test/test_app.py": "", "setup.py": "", "types/": "" })),
  );

  it("allows python3 -P -m json.tool beside a json.py (-P leaves the directory off sys.path), as real python shows", () => {
    const ws = workspace({ "json.py": RUN });
    allowed("python3 -P -m json.tool package.json", ws);
    if (has("python3")) expect(py(ws, "-P", "-m", "json.tool", "package.json").stdout).not.toContain("RAN");
  });
});
