// Over-ask, round 13: `declare -F` asked as if it printed the environment. An F in any `-` cluster of
// declare, typeset or local prints function names and nothing else (bash 5.2, proven below). While
// placing it, `declare +x` and `declare +F` were found allowed: bash reads a `+` word as options too, and
// both print every variable with its value. Attacks first.
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge } from "./policies.ts";
import { provenCases } from "./proven-case.ts";

afterAll(cleanBashRuns);

const SECRET = "TOPSECRET-DECLARE-13";
const env = { env: { GITHUB_TOKEN: SECRET } };
const printed = (run: { stdout: string }) => run.stdout.includes(SECRET);

provenCases("declaration builtins that print variables (written first)", [
  { name: "a + option is an option", command: "declare +x", setup: env, proof: printed },
  { name: "+F is no -F", command: "declare +F", setup: env, proof: printed },
  { name: "typeset +r", command: "typeset +r", setup: env, proof: printed },
  { name: "-F after -- is a name", command: "declare -- -F; declare", setup: env, proof: printed },
  { name: "a run-time word before -F", command: "o=+x; declare $o", setup: env, proof: printed },
  { name: "-f prints every body", command: "f() { echo $GITHUB_TOKEN; }; declare -f" },
]);

describe("function names only", () => {
  it.each([
    "declare -F",
    "typeset -F",
    "declare -pF",
    "declare +x -F",
    "declare -F -- f",
    "f() { :; }; declare -F",
  ])("allows %s, and bash prints no variable", (command) => {
    const r = judge(BALANCED, command);
    expect(r.action, r.reasons.join("\n")).toBe("allow");
    const run = runInBash(`f() { :; }; ${command}`, env);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).not.toContain(SECRET);
    expect(run.stdout).toMatch(/^(declare -f )?f$/m);
  });
});
