// Differential fuzz against bash itself: for generated commands, every simple command bash
// would run (recorded by a DEBUG trap under extdebug, which skips it) must be among the
// engine's units, or the engine must refuse to allow the command. The larger run, with its
// count and any disagreement recorded, is bench/policy/oracle.mjs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/index.ts";
import { bashRuns, coverage, programOf } from "./bash-oracle.ts";
import { compose, DANGER, noisy, RUNNING, safe, TRICKY } from "./generators.ts";

describe("bash as the oracle", () => {
  it("records what bash would run, and runs none of it", () => {
    const [plain, hidden, sub, nested] = bashRuns([
      "git status && touch PWNED",
      "git status # \\\ntouch HIDDEN",
      "( touch SUB )",
      "bash -c 'touch X'",
    ]);
    expect(plain).toEqual(["git status", "touch PWNED"]);
    expect(hidden).toEqual(["git status", "touch HIDDEN"]);
    expect(sub).toEqual(["touch SUB"]);
    expect(nested).toEqual(["bash -c 'touch X'"]);
  });

  it("reads the program of a recorded command", () => {
    expect(programOf("X=1 Y='a b' ls -la")).toBe("ls");
    expect(programOf("'r'\"m\" x")).toBe("rm");
    expect(programOf("\\rm x")).toBe("rm");
    expect(programOf("$CMD x")).toBeNull();
    expect(programOf("[[ -f x ]]")).toBe("[[");
    expect(programOf("(( x ))")).toBe("((");
  });

  it("the issue's parser disagreements are found by the oracle on round-1 units", () => {
    // What round 1 judged for these: one harmless command each. bash runs a second one.
    const cases: [string, string[]][] = [
      ["git status # \\\ntouch PWNED", ["git", "status"]],
      ["ls \\\r\ntouch PWNED", ["ls"]],
    ];
    for (const [command, roundOne] of cases) {
      const recorded = bashRuns([command])[0] ?? [];
      const old = coverage(
        [
          {
            kind: "exec",
            argv: roundOne,
            text: roundOne.join(" "),
            dynamic: null,
            words: [],
            prefixes: [],
            cwd: ".",
            program: roundOne[0] ?? "",
            effect: "read",
            concerns: [],
          },
        ],
        recorded,
      );
      expect(old.missed.length, command).toBeGreaterThan(0);
      const now = coverage(analyzeShell(command).units, recorded);
      expect(now.missed.length === 0 || now.engineAsks, command).toBe(true);
    }
  });

  it("on generated commands, the engine covers what bash runs (or never allows the command)", () => {
    const commands = fc.sample(compose([...RUNNING, ...TRICKY], safe, noisy(fc.constantFrom(...DANGER))), {
      numRuns: 2000,
      seed: 9,
    });
    const runs = bashRuns(commands);
    expect(runs).toHaveLength(commands.length);
    const disagreements: { command: string; missed: string[] }[] = [];
    commands.forEach((command, i) => {
      const c = coverage(analyzeShell(command).units, runs[i] ?? []);
      if (c.missed.length > 0 && !c.engineAsks) disagreements.push({ command, missed: c.missed });
    });
    expect(disagreements).toEqual([]);
    expect(runs.reduce((n, r) => n + r.length, 0)).toBeGreaterThan(commands.length);
  }, 180_000);
});
