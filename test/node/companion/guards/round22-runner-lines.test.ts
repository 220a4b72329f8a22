// Red team round 22, under autonomous's "Run the project": what the command line adds to a runner is not the
// project's. r22-05 `make --eval='$(shell cat ~/.netrc >&2)'` printed the secret `cat ~/.netrc` is denied;
// r22-06 `make SHELL=/outside/prog` ran a program outside as every recipe's shell; r22-07 `pytest
// --basetemp=src` emptied src/ before the run. Plain overrides (`V=1`, `CC=clang`) stay runs of the project.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AUTONOMOUS, judgeCommand } from "./judge-command.ts";

const ws = realpathSync(mkdtempSync(join(tmpdir(), "airlock-r22-runners-")));
afterAll(() => rmSync(ws, { recursive: true, force: true }));
writeFileSync(join(ws, "Makefile"), "all:\n\t@echo ok\ntest:\n\t@echo test\n");
writeFileSync(join(ws, "pytest.ini"), "[pytest]\n");
const judge = (command: string) => judgeCommand(ws, command, { policy: AUTONOMOUS });

describe("command-line additions to make and pytest (r22-05…07)", () => {
  it.each([
    "make --eval='$(shell cat ~/.netrc >&2)'",
    "make --eval=x:=1 all",
    "make SHELL=/tmp/prog all",
    "make CC=/tmp/cc all",
    "make 'CFLAGS=$(shell id)' all",
    "make MAKEFILES=/tmp/evil.mk",
    "make MAKEFLAGS=--eval=x all",
    "make X!=id all",
    "make CC=$CC all",
    "pytest --basetemp=src",
    "pytest --basetemp .",
    "pytest -q --basetemp=/tmp/x tests/",
    "python3 -m pytest --basetemp=src",
  ])("%s asks", (command) => {
    expect(judge(command).action).toBe("ask");
  });

  it.each(["make", "make test", "make V=1 test", "make CC=clang all", "make -j4 BUILD=release", "pytest -q"])(
    "%s stays a run of the project",
    (command) => {
      const j = judge(command);
      expect(j.action, j.reason).toBe("allow");
    },
  );
});

describe("a runner's word naming an absent place out of the workspace asks (s22-01)", () => {
  it.each([
    "npx vitest run --reporter=/tmp/airlock-absent-r9.mjs",
    "make -C /tmp/airlock-absent-dir test",
    "pytest /tmp/airlock-absent-tests",
  ])("%s", (command) => {
    const j = judge(command);
    expect(j.action).toBe("ask");
  });
  it("an absent make target or test path in the workspace stays a run", () => {
    expect(judge("make nosuchtarget").action).toBe("allow");
    expect(judge("pytest tests/test_new.py").action).toBe("allow");
  });
});
