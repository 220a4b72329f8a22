// fix21f's bindings as properties: a variable the script opens by setting (`NAME=VALUE`, `export
// NAME=VALUE`, `NAME=$(CMD)`) is judged as its value in its place, so the command is allowed exactly when
// the command with the value written there is; and `cd D && ls` is judged as `ls D`.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BALANCED, judge } from "./policies.ts";

const VALUES = ["README.md", "bar", "src/a.py", ".env", "*", "s*", "a b", "~/.ssh", "-n", "x[y]"];
const SUBSTS = [
  "git rev-parse --short HEAD",
  "git branch --show-current",
  "date",
  "cat list.txt",
  "echo '*'",
];
const USERS = ["echo $X", 'echo "$X"', "cat $X", 'printf "%s\\n" $X', "ls $X"];

describe("an opening binding is its value in its place", () => {
  it("NAME=VALUE and export NAME=VALUE: allowed exactly when the value written there is", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VALUES),
        fc.constantFrom(...USERS),
        fc.boolean(),
        (value, use, exported) => {
          const quoted = `'${value}'`;
          const bound = judge(BALANCED, `${exported ? "export " : ""}X=${quoted}; ${use}`).action === "allow";
          // The value as the use would give it: quoted stays one word, unquoted is split and globbed again.
          // (a `~` from a variable is not expanded: written escaped).
          const written = use.replace(/"\$X"/, quoted).replace(/\$X/, value.replace(/^~/, "\\~"));
          const direct = judge(BALANCED, written).action === "allow";
          if (bound) expect(direct, `${use} with ${value}`).toBe(true);
        },
      ),
    );
  });

  it("NAME=$(CMD): allowed only when the command with `$(CMD)` there is", () => {
    fc.assert(
      // Unquoted uses only: a quoted `"$X"` of any assigned name was judged before (and is not bound here).
      fc.property(
        fc.constantFrom(...SUBSTS),
        fc.constantFrom(...USERS.filter((u) => !u.includes('"$X"'))),
        (cmd, use) => {
          const bound = judge(BALANCED, `X=$(${cmd}); ${use}`).action === "allow";
          const direct = judge(BALANCED, use.replace("$X", `$(${cmd})`)).action === "allow";
          if (bound) expect(direct, `${use} with $(${cmd})`).toBe(true);
        },
      ),
    );
    // Not vacuous: the bound form is allowed where the command prints no glob character.
    expect(judge(BALANCED, "X=$(git rev-parse --short HEAD); echo $X").action).toBe("allow");
  });
});

describe("a listing after a cd", () => {
  it("`cd D && ls` is judged as `ls D`", () => {
    const dirs = ["..", "../..", "/etc", "/tmp", "src", "~/.ssh", "secrets", "~", "/"];
    fc.assert(
      fc.property(fc.constantFrom(...dirs), fc.constantFrom("", " -la", " -d"), (dir, opts) => {
        expect(judge(BALANCED, `cd ${dir} && ls${opts}`).action, dir).toBe(
          judge(BALANCED, `ls${opts} ${dir}`).action,
        );
      }),
    );
  });
});
