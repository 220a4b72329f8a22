// Issue 20, an everyday over-ask: `export X=$(cmd)` (in bash, and in `sh -c` / `bash -c` scripts) asked
// as if it printed the environment. An assignment word names its variable literally, so a declaration
// builtin given only assignments prints nothing; the substitution inside is judged as its own unit. The
// attacks are what the relaxation must not open: a dynamic word that becomes `-p`, a substitution that
// reads or prints a secret, an assignment to a variable that changes what a later command runs, and, for
// sh, a script dash may read otherwise.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge, READ_ONLY, STRICT_PROFILES } from "./policies.ts";
import { provenCases } from "./proven-case.ts";

afterAll(cleanBashRuns);

const SECRET = "TOPSECRET-ENV-7";
const env = { env: { GITHUB_TOKEN: SECRET } };
const printed = (run: { stdout: string }) => run.stdout.includes(SECRET);

provenCases("export and a substitution: what stays refused", [
  { name: "a substitution that becomes -p", command: "export $(echo -p)", setup: env, proof: printed },
  {
    name: "a second, dynamic word",
    command: "export X=$(echo 1) $(echo -p)",
    setup: env,
    proof: (run) => run.stderr.includes("not a valid identifier") || printed(run),
  },
  {
    name: "the substitution prints a secret variable",
    command: 'export X=$(printenv GITHUB_TOKEN); echo "$X"',
    setup: env,
    proof: printed,
  },
  {
    name: "the substitution reads a secret file",
    command: 'export X=$(cat ~/.ssh/id_ed25519); echo "$X"',
    setup: { files: { "~/.ssh/id_ed25519": SECRET } },
    proof: printed,
  },
  {
    name: "PATH set from a substitution, then a command looked up in it",
    command: "export PATH=$(pwd)/bin:$PATH; ls",
    setup: { files: { "bin/ls": "#!/bin/sh\ntouch PWNED\n" } },
    proof: "PWNED",
  },
  {
    name: "BASH_ENV set from a substitution, then a shell",
    command: "export BASH_ENV=$(pwd)/rc; bash -c true",
    setup: { files: { rc: "touch PWNED\n" } },
    proof: "PWNED",
  },
  // Behind `command` or `builtin`, export is a plain command: its words are split, so the output of the
  // substitution can name more variables (PATH among them) for the commands after it.
  {
    name: "command export splits the substitution: PATH for the next command",
    command: 'command export X=$(echo "a PATH=$(pwd)/bin"); ls',
    setup: { files: { "bin/ls": "#!/bin/sh\n/usr/bin/touch PWNED\n" } },
    proof: "PWNED",
  },
  {
    name: "builtin export splits the substitution: PATH for the next command",
    command: 'builtin export X=$(echo "a PATH=$(pwd)/bin"); ls',
    setup: { files: { "bin/ls": "#!/bin/sh\n/usr/bin/touch PWNED\n" } },
    proof: "PWNED",
  },
  {
    name: "builtin export splits the substitution into -p",
    command: "builtin export X=$(echo '-p')",
    setup: env,
    proof: (run) => run.status === 0,
  },
  {
    name: "sh -c: PATH set from a substitution, then a command",
    command: "sh -c 'export PATH=\"$(pwd)/bin:$PATH\"; ls'",
    setup: { files: { "bin/ls": "#!/bin/sh\ntouch PWNED\n" } },
    proof: "PWNED",
  },
  {
    name: "sh -c: a substitution that runs a command",
    command: "sh -c 'export X=$(touch PWNED)'",
    proof: "PWNED",
  },
  {
    name: "bash -c: an array subscript runs arithmetic",
    command: "bash -c 'export X[$(touch PWNED)0]=1'",
    proof: "PWNED",
  },
]);

describe("sh reads a substitution in export otherwise than bash (never allowed there)", () => {
  it("bash-only syntax inside the substitution, or a brace expansion, is not understood in sh", () => {
    for (const command of [
      "sh -c 'export X=$(echo $'\"'\"'\\x41'\"'\"')'",
      "sh -c 'export X=$(echo {a,b})'",
      "sh -c 'export X=$([[ -n a ]] && echo y)'",
    ])
      for (const [name, policy] of STRICT_PROFILES)
        expect(judge(policy, command).action, `${name}: ${command}`).not.toBe("allow");
  });

  it("an unquoted substitution with commands after it asks: a dash before 0.5.11 splits its output into more names", () => {
    // dash 0.5.12 (Debian 12/13) reads `export X=$(…)` as an assignment, as bash does; older ones split the
    // output into words, each `NAME=value` another assignment (`PATH=…` for the commands after it).
    for (const command of [
      "sh -c 'export X=$(git log -1 --format=%s); ls'",
      "sh -c 'export X=$(git log -1 --format=%s)\nls'",
      "sh -c 'trap ls EXIT; export X=$(git log -1 --format=%s)'",
      "sh -c 'for i in 1 2; do export X=$(git log -1 --format=%s); done'",
    ])
      expect(judge(READ_ONLY, command).action, command).not.toBe("allow");
  });
});

describe("export of an understood, read-only substitution is allowed", () => {
  it.each([
    "export X=$(git log -1 --format=%H)",
    'export X="$(git log -1 --format=%H)"',
    "export A=1 B=$(date +%s)",
    "bash -c 'export X=$(git log -1 --format=%H)'",
    "sh -c 'export X=$(git log -1 --format=%H)'",
    'sh -c \'export X="$(git log -1 --format=%H)"; echo "$X"\'',
    "declare X=$(date)",
  ])("%s", (command) => {
    expect(judge(READ_ONLY, command).action).toBe("allow");
  });

  it("git rev-parse under the starter policy (which asks for any `bash -c` / `sh -c` itself)", () => {
    expect(judge(BALANCED, "export X=$(git rev-parse HEAD)").action).toBe("allow");
  });

  it("bash does what the engine says: the export prints nothing and sets X", () => {
    const run = runInBash("export X=$(echo hi); sh -c 'echo \"[$X]\"'", env);
    expect(run.stdout).toBe("[hi]\n");
  });

  it("property: a dynamic word that is not NAME=… or NAME+=… keeps the declaration a possible print", () => {
    const word = fc.constantFrom(
      "$(echo -p)",
      '"$(echo x)"',
      "X[$(echo 1)]=1",
      "$X=1",
      "-$(echo p)",
      "\\X=$(echo 1)",
    );
    fc.assert(
      fc.property(word, fc.constantFrom("export", "declare", "local"), (w, builtin) => {
        const command = `${builtin} ${w}`;
        expect(judge(READ_ONLY, command).action, command).not.toBe("allow");
      }),
    );
  });
});
