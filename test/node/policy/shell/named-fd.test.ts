// Red team round 9, class C: `{NAME}>file` (bash's named-fd redirection, also with `exec`, `<`, `<>`,
// `>&-`) stores a file descriptor's number in NAME, and `coproc NAME …` sets the array NAME and
// NAME_PID. Both are assignments: a protected variable (PATH, HOME, CDPATH, …) is never allowed, an
// ordinary one stays fine. The attacks run in real bash in the corpus (rt9-003*).
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge, READ_ONLY } from "./policies.ts";

afterAll(cleanBashRuns);

const PROTECTED = ["PATH", "HOME", "CDPATH", "PWD", "OLDPWD", "IFS", "SHELL", "BASH_ENV", "ENV", "TMPDIR"];
const FORMS = [
  (n: string) => `true {${n}}>/dev/null`,
  (n: string) => `exec {${n}}>/dev/null`,
  (n: string) => `: {${n}}</dev/null`,
  (n: string) => `true {${n}}<>/dev/null`,
  (n: string) => `true {${n}}>&-`,
  (n: string) => `coproc ${n} { read; }`,
  (n: string) => `coproc ${n} (read)`,
];

describe("named-fd redirections and coproc assign their name", () => {
  it("bash sets the name: {PATH}>/dev/null makes PATH a number, coproc sets NAME and NAME_PID", () => {
    expect(runInBash('true {PATH}>/dev/null; echo "$PATH"').stdout.trim()).toMatch(/^[0-9]+$/);
    expect(runInBash('coproc CDPATH { read; }; echo "$CDPATH $CDPATH_PID"').stdout.trim()).toMatch(
      /^[0-9]+ [0-9]+$/,
    );
  });
  it("property: a protected variable named by any form is never allowed", () => {
    fc.assert(
      fc.property(fc.constantFrom(...PROTECTED), fc.constantFrom(...FORMS), (name, form) => {
        const command = `${form(name)}; cat README.md`;
        expect(judge(READ_ONLY, command).action, command).not.toBe("allow");
        expect(judge(BALANCED, command).action, command).not.toBe("allow");
        expect(judge(BALANCED, command, false).action, command).toBe("deny");
      }),
    );
  });
  it("a subscripted name is refused: bash evaluates {a[i++]} as arithmetic", () => {
    expect(runInBash("i=0; true {a[i++]}>/dev/null; echo $i").stdout.trim()).toBe("1");
    expect(judge(READ_ONLY, "true {a[i++]}>/dev/null").action).not.toBe("allow");
    expect(judge(READ_ONLY, "true {PATH[0]}>/dev/null; cat README.md").action).not.toBe("allow");
  });
  it("an ordinary name stays allowed", () => {
    expect(judge(READ_ONLY, "true {fd}>/dev/null; echo done").action).toBe("allow");
    expect(judge(BALANCED, "coproc reader { cat; }; echo hi").action).toBe("allow");
  });
});
