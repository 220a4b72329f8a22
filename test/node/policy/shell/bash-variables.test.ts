// Red team round 10, class A: bash variables that steer where later words land or what runs.
// DIRSTACK is pushd's stack (`DIRSTACK[1]=DIR; popd` goes to DIR), BASH_CMDS the command hash table
// (`BASH_CMDS[ls]=./x; ls` runs ./x), BASH_ALIASES the alias table, EXECIGNORE hides programs from
// the PATH search. Setting any of them by any assignment form is never allowed, and after DIRSTACK
// is set the directory a popd reaches is unknown. The attacks run in real bash in the corpus (rt10-00*).
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { compile, user } from "../helpers.ts";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge, READ_ONLY } from "./policies.ts";

afterAll(cleanBashRuns);

const STEERING = [
  "DIRSTACK",
  "BASH_CMDS",
  "BASH_ALIASES",
  "BASH_ARGV0",
  "EXECIGNORE",
  "TEXTDOMAIN",
  "TEXTDOMAINDIR",
];
const FORMS = [
  (n: string) => `${n}=x`,
  (n: string) => `${n}[1]=x`,
  (n: string) => `${n}=(x y)`,
  (n: string) => `${n}+=(x)`,
  (n: string) => `declare ${n}[1]=x`,
  (n: string) => `export ${n}=x`,
  (n: string) => `typeset -a ${n}`,
  (n: string) => `printf -v '${n}[1]' %s x`,
  (n: string) => `read '${n}[1]' <<< x`,
  (n: string) => `read -a ${n} <<< 'x y'`,
  (n: string) => `mapfile -t -O 1 ${n} <<< x`,
  (n: string) => `readarray ${n} < README.md`,
  (n: string) => `exec {${n}}>/dev/null`,
  (n: string) => `: \${${n}:=x}`,
  (n: string) => `unset ${n}`,
  (n: string) => `${n}=x ls`,
];

describe("variables that steer bash", () => {
  it("bash follows them: a rewritten DIRSTACK entry is where popd goes, BASH_CMDS runs what it maps", () => {
    const moved = runInBash("mkdir -p d; pushd . >/dev/null; DIRSTACK[1]=d; popd >/dev/null; pwd");
    expect(moved.stdout.trim()).toBe(`${moved.dir}/d`);
    const ran = runInBash("BASH_CMDS[ls]=./x; ls", { files: { x: "#!/bin/sh\ntouch PWNED\n" } });
    expect(ran.exists("PWNED")).toBe(true);
  });

  it("property: setting one by any form, before a plain read, is never allowed", () => {
    fc.assert(
      fc.property(fc.constantFrom(...STEERING), fc.constantFrom(...FORMS), (name, form) => {
        const command = `pushd . >/dev/null; ${form(name)}; popd >/dev/null; cat README.md`;
        expect(judge(READ_ONLY, command).action, command).not.toBe("allow");
        expect(judge(BALANCED, command).action, command).not.toBe("allow");
        expect(judge(BALANCED, command, false).action, command).toBe("deny");
      }),
    );
  });

  it("a rule that allows setting DIRSTACK still does not know where popd goes", () => {
    const named = compile(
      user(`
default_action: ask
rules:
  - name: may set DIRSTACK
    condition: 'tool == "bash" && "DIRSTACK" in prefixes'
    action: allow
  - name: reads in the project
    condition: 'tool == "bash" && program in ["pushd", "popd", "cat"] || tool == "read" && path.startsWith(cwd + "/")'
    action: allow
`),
    );
    expect(judge(named, "pushd . >/dev/null; popd >/dev/null; cat hosts.yml").action).toBe("allow");
    const r = judge(named, "pushd . >/dev/null; DIRSTACK[1]=/x; popd >/dev/null; cat hosts.yml");
    expect(r.action, r.reasons.join("\n")).not.toBe("allow");
  });

  it("an ordinary array and the stack itself stay fine", () => {
    for (const command of [
      'dirs=(a b); echo "$dirs"',
      "pushd src >/dev/null; ls; popd >/dev/null",
      "dirs -v",
    ])
      expect(judge(BALANCED, command).action, command).toBe("allow");
  });
});
