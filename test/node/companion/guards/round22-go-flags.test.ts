// Red team round 22, under autonomous's "Run the project" (go build/test/run are runners; their -o asks when it
// leaves the workspace): r22-02 `go install ./cmd/git` wrote ~/go/bin/git, which a later `git status` ran from
// PATH; r22-03 `go build -ldflags=-o=.git/hooks/pre-commit` — the linker's own -o — wrote a hook the next commit
// ran; r22-04 `-ldflags='-linkmode=external -extld=/outside/prog'` ran a program outside the workspace. go
// install is not understood, and -ldflags/-gcflags are understood only with the everyday tool flags.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { AUTONOMOUS, judgeCommand } from "./judge-command.ts";

const ws = realpathSync(mkdtempSync(join(tmpdir(), "airlock-r22-go-")));
afterAll(() => rmSync(ws, { recursive: true, force: true }));
mkdirSync(join(ws, "cmd", "hook"), { recursive: true });
writeFileSync(join(ws, "go.mod"), "module example.com/x\n\ngo 1.19\n");
writeFileSync(join(ws, "cmd", "hook", "main.go"), "package main\n\nfunc main() {}\n");
const judge = (command: string) => judgeCommand(ws, command, { policy: AUTONOMOUS });

describe("go's linker and compiler flags, and go install (r22-02…04)", () => {
  it.each([
    "go install ./cmd/hook",
    "go install example.com/x/cmd/hook@latest",
    "go build -ldflags=-o=.git/hooks/pre-commit ./cmd/hook",
    "go build -ldflags '-o /tmp/x' ./cmd/hook",
    "go test -ldflags=-o=x ./...",
    "go run -ldflags='-linkmode=external -extld=/tmp/ld.sh' ./cmd/hook",
    "go build -ldflags='-extar=/tmp/ar.sh' ./cmd/hook",
    "go build -ldflags=\"-X 'main.v=1 2'\" ./cmd/hook",
    "go build -ldflags=$FLAGS ./cmd/hook",
    "go build -gcflags=-cpuprofile=/tmp/p ./cmd/hook",
    "go build -gcflags='all=-importcfg /tmp/cfg' ./cmd/hook",
  ])("%s asks", (command) => {
    expect(judge(command).action).toBe("ask");
  });

  it.each([
    "go build ./cmd/hook",
    "go build -ldflags='-s -w' ./cmd/hook",
    "go build -ldflags='-X main.version=1.2.3 -X main.commit=abc123' ./cmd/hook",
    "go build -ldflags=-X=main.version=v1.2.3-4-gabc ./cmd/hook",
    "go test -gcflags='all=-N -l' ./...",
    "go build -gcflags=-m=2 ./cmd/hook",
  ])("%s stays a run of the project", (command) => {
    const j = judge(command);
    expect(j.action, j.reason).toBe("allow");
  });

  it("property: a linker flag outside the everyday ones never allows", () => {
    const word = fc.constantFrom(
      "-o",
      "-extld",
      "-extar",
      "-extldflags",
      "-linkmode",
      "-r",
      "-I",
      "-T",
      "-H",
      "-tmpdir",
    );
    fc.assert(
      fc.property(word, fc.stringMatching(/^[a-z/.]{1,12}$/), fc.boolean(), (flag, value, glued) => {
        const ld = glued ? `${flag}=${value}` : `${flag} ${value}`;
        expect(judge(`go build -ldflags='-s ${ld}' ./cmd/hook`).action).toBe("ask");
      }),
      { numRuns: 80 },
    );
  });
});
