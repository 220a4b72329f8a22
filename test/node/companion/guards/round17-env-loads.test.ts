// Red team rounds 16/17 (fix17b): variables of the agent's environment that make a program load or run a
// file, missing from the env-loads table: BC_ENV_ARGS (bc loads its files), TAR_OPTIONS (--to-command),
// ZIPOPT (-TT), GIT_EXTERNAL_DIFF, MANOPT (-P) and less's key files (LESSKEYIN's `#env` sets LESSOPEN).
// With one naming a workspace file, writing it asks, and so does running the program while it is there.
// Each program's own run is the proof (where it is installed); everyday values are judged as before.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gitWorkspace } from "./disk-fixture.ts";
import { itAsksForVariables, itJudgesAsClean, judgedWith } from "./env-judge.ts";

const { base, ws, home } = gitWorkspace("airlock-r17env-", {
  "README.md": "# demo\n",
  "lib.bc": 'print "LOADED\\n"\n',
  "tools/run.sh": `#!/bin/sh\ntouch "${"$"}{MARK:-/dev/null}"\ncat >/dev/null 2>&1\nexit 0\n`,
  "keys.txt": "#env\nLESSOPEN=|tools/run.sh %s\n",
});
chmodSync(join(ws, "tools/run.sh"), 0o755);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const judged = judgedWith(ws, home);

const script = join(ws, "tools/run.sh");
const CASES: [string, string, string][] = [
  ["BC_ENV_ARGS", `-q ${join(ws, "lib.bc")}`, "echo 1+1 | bc"],
  ["BC_ENV_ARGS", "lib.bc", "echo 1+1 | bc"],
  ["TAR_OPTIONS", `--to-command=${script}`, "tar xf a.tar -C out"],
  ["TAR_OPTIONS", `--checkpoint=1 --checkpoint-action=exec=${script}`, "tar tf a.tar"],
  ["ZIPOPT", `-T -TT ${script}`, "zip -q z.zip README.md"],
  ["GIT_EXTERNAL_DIFF", script, "git diff"],
  ["MANOPT", `-P ${script}`, "man ls"],
  ["LESSKEYIN", join(ws, "keys.txt"), "less README.md"],
];

describe("a variable naming a workspace file a program loads or runs", () => {
  itAsksForVariables(judged, ws, CASES, [
    ["BC_ENV_ARGS", join(ws, "lib.bc"), "lib.bc"],
    ["TAR_OPTIONS", `--to-command=${script}`, "tools/run.sh"],
    ["ZIPOPT", `-TT ${script}`, "tools/run.sh"],
    ["GIT_EXTERNAL_DIFF", script, "tools/run.sh"],
    ["MANOPT", `--pager=${script}`, "tools/run.sh"],
    ["LESSKEYIN", join(ws, "keys.txt"), "keys.txt"],
  ]);
});

const installed = (program: string) => spawnSync("sh", ["-c", `command -v ${program}`]).status === 0;

describe("the programs do run it (the proof, where installed)", () => {
  const proofs: [string, string, Record<string, string>][] = [
    ["bc", "echo 1+1 | bc", { BC_ENV_ARGS: `-q ${join(ws, "lib.bc")}` }],
    [
      "tar",
      "tar cf a.tar README.md && mkdir -p out && tar xf a.tar -C out",
      { TAR_OPTIONS: `--to-command=${script}` },
    ],
    ["zip", "zip -q z.zip README.md", { ZIPOPT: `-T -TT ${script}` }],
    ["git", "echo more >> README.md; git diff; git checkout -q README.md", { GIT_EXTERNAL_DIFF: script }],
    ["less", "less README.md </dev/null", { LESSKEYIN: join(ws, "keys.txt") }],
  ];
  it.each(proofs)("%s", (program, command, env) => {
    if (!installed(program)) return;
    const mark = join(base, `ran-${program}`);
    const r = spawnSync("sh", ["-c", command], {
      cwd: ws,
      env: { PATH: process.env.PATH, HOME: home, MARK: mark, ...env },
      encoding: "utf8",
    });
    expect(existsSync(mark) || r.stdout.includes("LOADED"), `${r.stdout}${r.stderr}`).toBe(true);
  });
});

describe("everyday values: judged as with a clean environment", () => {
  itJudgesAsClean(judged, [
    ["BC_ENV_ARGS", "-q", "echo 1+1 | bc"],
    ["TAR_OPTIONS", "--no-same-owner --warning=no-unknown-keyword", "tar tf a.tar"],
    ["ZIPOPT", "-9", "zip -q z.zip README.md"],
    ["GIT_EXTERNAL_DIFF", "difft", "git diff"],
    ["LESSKEYIN", "/etc/lesskey", "git log --oneline -3"],
  ]);
});
