// Over-ask, round 13: `env - cat README.md` asked, `-` taken for the program env runs. GNU env reads a lone
// `-` right after its options as -i ("a mere - implies -i", coreutils 9.1, proven below), so the command is
// `cat README.md` with an empty environment. What env then runs is judged as ever. Attacks first.
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge } from "./policies.ts";
import { provenCases } from "./proven-case.ts";

afterAll(cleanBashRuns);

provenCases("what env runs after a lone - (written first)", [
  { name: "a shell", command: "env - bash -c 'touch PWNED'", proof: "PWNED" },
  { name: "after -u", command: "env -u X - sh -c 'touch PWNED'", proof: "PWNED" },
  { name: "after --", command: "env -- - sh -c 'touch PWNED'", proof: "PWNED" },
  { name: "a second - is the program env runs", command: "env - - README.md" },
  { name: "an assignment after it", command: "env - BASH_ENV=x.sh bash -c true" },
]);

describe("an empty environment, then a plain read", () => {
  it.each([
    "env - cat README.md",
    "env -i cat README.md",
    "env -u X - cat README.md",
    "env -- - cat README.md",
  ])("allows %s, and env runs cat with no variable", (command) => {
    const r = judge(BALANCED, command);
    expect(r.action, r.reasons.join("\n")).toBe("allow");
    const run = runInBash(command.replace("cat README.md", "sh -c 'cat README.md; env'"), {
      files: { "README.md": "hello\n" },
      env: { X_TOKEN: "x" },
    });
    expect(run.stdout, run.stderr).toContain("hello");
    expect(run.stdout).not.toContain("X_TOKEN");
  });
});
