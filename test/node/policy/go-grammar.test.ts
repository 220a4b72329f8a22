// Tests generated from go's grammar (src/policy/shell/grammar/programs/go.ts, go-reads.ts): every option of
// every go command in both spellings Go's flag package takes (`-x`, `--x`, `-x=v`), refused ones not
// understood; every operand kind placed; every command not listed not understood.
import { describe, expect, it } from "vitest";
import { understand } from "../../../src/policy/shell/grammar/parse.ts";
import { GO_COMMANDS, go } from "../../../src/policy/shell/grammar/programs/go.ts";
import type { Arg } from "../../../src/policy/shell/wrappers.ts";

const arg = (value: string): Arg => ({ value, raw: value, glob: false, tilde: false });
const judge = (command: string) => understand(go, command.split(" ").map(arg));

/** An operand each command takes, so that the option is judged in a complete command. */
const OPERAND: Record<string, string> = { env: "GOPATH", help: "build", doc: "fmt", version: "" };

/** A value each flag string option takes as understood (go.ts's tool flags: any other string is not). */
const VALUE: Record<string, string> = { "-ldflags": "-s", "-gcflags": "-N" };

describe("every option of every go command", () => {
  for (const [name, g] of Object.entries(GO_COMMANDS)) {
    describe(`go ${name}`, () => {
      if (g.options.length === 0)
        it("takes no option", () => expect(judge(`go ${name} -x`).understood).toBe(false));
      for (const o of g.options)
        for (const spelling of o.names) {
          const value = o.choices?.[0] ?? VALUE[spelling] ?? (o.kind === "write" ? "out.bin" : "v");
          for (const form of [spelling, `-${spelling}`]) {
            const words = o.value === "required" ? `${form} ${value}` : form;
            it(words, () => {
              const command = `go ${name} ${words} ${OPERAND[name] ?? "."}`.trim();
              const u = judge(command);
              const refused = o.mode === "refused";
              expect(u.understood, `${command}: ${u.understood ? "" : u.why.reason}`).toBe(!refused);
              if (!u.understood) expect(u.why.reason.length).toBeGreaterThan(10);
              if (o.kind === "write" && u.understood)
                expect(u.effects.paths.some((e) => e.access === "write" && e.arg.value === "out.bin")).toBe(
                  true,
                );
            });
          }
        }
    });
  }
});

describe("operands", () => {
  it.each([
    ["go list ./...", "walk", "."],
    ["go list ./sub/...", "walk", "./sub"],
    ["go list ../other", "walk", "../other"],
    ["go list /abs/dir/...", "walk", "/abs/dir"],
    ["go list x.go", "read", "x.go"],
    ["go list", "walk", "."],
    ["go doc", "walk", "."],
    ["go doc ./sub Sym", "walk", "./sub"],
    ["go fmt ./...", "write", "."],
    ["go fmt", "write", "."],
    ["go fmt ../x.go", "write", "../x.go"],
    ["go version ./bin", "walk", "./bin"],
  ])("%s: %s of %s", (command, access, path) => {
    const u = judge(command);
    expect(u.understood).toBe(true);
    expect(
      u.effects.paths.some((e) => e.access === access && e.arg.value === path),
      command,
    ).toBe(true);
  });

  it.each(["go list fmt", "go list std", "go doc fmt.Println", "go doc json Marshal", "go env GOOS GOARCH"])(
    "%s names no path",
    (command) => {
      const u = judge(command);
      expect(u.understood).toBe(true);
      expect(u.effects.paths).toEqual([]);
    },
  );

  it.each([
    ["go fmt fmt", "fmt"],
    ["go fmt example.com/p/...", "example.com/p/..."],
    ["go doc a b c", "c"],
    ["go list -mod=mod ./...", "-mod=mod"],
    ["go list -mod mod", "-mod"],
    ["go mod tidy", "mod"],
    ["go get x", "get"],
    ["go clean", "clean"],
    ["go tool pprof", "tool"],
    ["go --version", "--version"],
    ["go bug", "bug"],
    ["go install ./...", "install"],
  ])("%s is not understood at %s", (command, word) => {
    const u = judge(command);
    expect(u.understood).toBe(false);
    if (!u.understood) expect(u.why.word).toBe(word);
  });

  it("the runners run project code; the reads read; go fmt writes", () => {
    for (const r of ["build", "test", "run", "vet", "generate"])
      expect(judge(`go ${r} ./...`).effects.effect).toBe("run");
    for (const r of ["list", "doc", "env", "version", "help"])
      expect(judge(`go ${r}`).effects.effect).toBe("read");
    expect(judge("go fmt").effects.effect).toBe("write");
  });
});
