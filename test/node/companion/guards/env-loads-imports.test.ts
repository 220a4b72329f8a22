// PYTHONPATH, PERL5LIB and PERLLIB naming a workspace directory made every write below it ask (round 15's
// env-loads), `src/README.md` and `lib/notes.txt` too, though python and perl load only module files from
// there (round 16 over-asks, fix16g). A write of a name they import still asks — a module, a package
// directory, python's __pycache__, the entry itself — and NODE_PATH is not narrowed: require() loads a bare
// name's exact file as JavaScript whatever its extension.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diskCheck } from "../../../../src/companion/guards/disk-view.ts";
import type { ToolCall } from "../../../../src/policy/types.ts";
import { BALANCED } from "../../policy/shell/policies.ts";
import { gitWorkspace, judgeOnDisk } from "./disk-fixture.ts";

const { base, ws, home } = gitWorkspace("airlock-16g-imports-", {
  "README.md": "# demo\n",
  "src/a.py": "1\n",
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function written(rel: string, env: NodeJS.ProcessEnv): { action: string; why: string } {
  const disk = diskCheck({ env: { HOME: home, ...env } });
  const call = { tool: "write", input: { file_path: join(ws, rel), content: "x\n" }, cwd: ws } as ToolCall;
  const j = judgeOnDisk(BALANCED, call, { disk });
  return { action: j.action, why: j.why };
}

describe("a search directory's files the loader never imports", () => {
  it.each([
    [
      "PYTHONPATH",
      "src",
      ["src/README.md", "src/notes.txt", "src/data.json", "src/.keep", "src/pkg.v2/x.txt"],
    ],
    ["PYTHONPATH", ".", ["docs/guide.md", "config.yaml"]],
    ["PERL5LIB", "lib", ["lib/notes.txt", "lib/Foo/README.md"]],
    ["PERLLIB", "lib", ["lib/data.csv"]],
  ] as const)("%s=%s: %j are written without asking", (name, entry, files) => {
    const env = { [name]: entry === "." ? "." : join(ws, entry) };
    for (const rel of files) {
      const { action, why } = written(rel, env);
      expect(action, `${rel}: ${why}`).toBe("allow");
    }
  });
});

describe("what the loader imports still asks", () => {
  it.each([
    [
      "PYTHONPATH",
      "src",
      [
        "src/json.py",
        "src/os.pyc",
        "src/pkg",
        "src/pkg/__init__.py",
        "src/fast.cpython-311-x86_64-linux-gnu.so",
      ],
    ],
    ["PYTHONPATH", "src", ["src/__pycache__/json.cpython-311.pyc", "src/__pycache__/notes.txt", "src/x.pth"]],
    ["PYTHONPATH", ".", ["json.py", "tools/os.py"]],
    [
      "PERL5LIB",
      "lib",
      ["lib/strict.pm", "lib/Foo/Bar.pmc", "lib/syscall.ph", "lib/utf8_heavy.pl", "lib/auto/Foo/Foo.so"],
    ],
    ["PERLLIB", "lib", ["lib/warnings.pm", "lib/auto"]],
    // require("README.md") from NODE_PATH runs the file as JavaScript.
    ["NODE_PATH", "src", ["src/README.md", "src/semver.js", "src/semver/package.json"]],
  ] as const)("%s=%s: %j ask", (name, entry, files) => {
    const env = { [name]: entry === "." ? "." : join(ws, entry) };
    for (const rel of files) {
      const { action, why } = written(rel, env);
      expect(action, rel).not.toBe("allow");
      expect(why, rel).toContain(name);
    }
  });

  it("the entry itself (a zip python reads) and a relative entry's own name ask", () => {
    expect(written("lib.zip", { PYTHONPATH: join(ws, "lib.zip") }).action).not.toBe("allow");
    expect(written("sub/vendor.txt", { PYTHONPATH: "vendor.txt" }).action).not.toBe("allow");
  });
});
