// Red team, round 14 (r14-24): a runner's project reached through a symlinked directory. With
// `ext -> ../outside-proj` (a shipped link, or a shortcut to a sibling checkout), `cd ext && npm test`,
// `go test ./ext`, `pytest ext/test_x.py` and `make -C ext test` ran the other checkout's scripts, tests
// and Makefile under the autonomous starter's "Run the project": the defining file was judged where its
// path reads, inside the workspace, not where it is. A runner whose project's real path leads out of the
// workspace now asks; the same runs in a directory of the workspace's own stay allowed.
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AUTONOMOUS } from "../../policy/shell/policies.ts";
import { gitWorkspace, judgeOnDisk, write } from "./disk-fixture.ts";

const PROJECT = {
  "package.json": '{"name":"x","scripts":{"test":"node -e 0"}}\n',
  Makefile: "test:\n\t@echo ok\n",
  "test_x.py": "def test_x():\n    assert True\n",
  "go.mod": "module example.com/x\n\ngo 1.22\n",
  "x_test.go": "package x\n",
  "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
};

const { base, ws, home } = gitWorkspace("airlock-rt14-link-", {
  ...PROJECT,
  ...Object.fromEntries(Object.entries(PROJECT).map(([rel, text]) => [`inner/${rel}`, text])),
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

// The finding's layout: a checkout beside the workspace, linked into it.
const outside = join(base, "outside-proj");
mkdirSync(outside);
for (const [rel, text] of Object.entries(PROJECT)) write(join(outside, rel), text);
symlinkSync(outside, join(ws, "ext"));
// A defining file of its own linked in: the directory is the workspace's, what runs is not.
mkdirSync(join(ws, "linked"));
symlinkSync(join(outside, "package.json"), join(ws, "linked", "package.json"));

function judged(command: string) {
  return judgeOnDisk(AUTONOMOUS, { tool: "bash", input: { command }, cwd: ws, workspace: ws, home });
}

describe("a runner's project through a symlinked directory (autonomous)", () => {
  it.each([
    "cd ext && npm test",
    "cd ext && npm run test",
    "cd ext && node --run test",
    "cd ext && pytest",
    "cd ext && go test ./...",
    "cd ext && cargo test",
    "cd ext && make test",
    "go test ./ext",
    "pytest ext/test_x.py",
    "pytest ext/",
    "make -C ext test",
    "make --directory=ext test",
    "make -Cext test",
    "make -C ext/../outside-proj test",
    `make -C ${outside} test`,
    "make -C [e]xt test",
    "pytest [e]xt/test_x.py",
    "pytest --rootdir=ext",
    "cd linked && npm test",
  ])("%s asks", (command) => {
    const r = judged(command);
    expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("ask");
  });
});

describe("the same runs in the workspace's own directory stay allowed", () => {
  it.each([
    "npm test",
    "cd inner && npm test",
    "cd inner && pytest",
    "cd inner && cargo test",
    "cd inner && make test",
    "go test ./inner",
    "pytest inner/test_x.py",
    "make -C inner test",
    "pytest inner/*.py",
    "npm test -- --grep parser",
  ])("%s is allowed", (command) => {
    const r = judged(command);
    expect(r.action, `${command}\n${r.why}\n${r.reasons.join("\n")}`).toBe("allow");
  });
});
