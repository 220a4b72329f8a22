// Red team, round 19 (r19-17): groff's search paths in the agent's environment pointing into the workspace.
// Every `man NAME` formats its page with nroff → groff → troff, which read macro files from GROFF_TMAC_PATH
// (a `man.local` whose `.so` named ~/.ssh/id_ed25519 printed the key in the page), device descriptions from
// GROFF_FONT_PATH (DESC's `postpro` is a program groff runs), troff itself from GROFF_BIN_PATH, and prefixed
// programs by GROFF_COMMAND_PREFIX; man passes MANROFFOPT's `-M DIR` to the formatter. With one leading to
// something the project holds, `man` asks and so does writing there; everyday values change nothing.
import { spawnSync } from "node:child_process";
import { chmodSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gitWorkspace } from "./disk-fixture.ts";
import { itAsksForVariables, itJudgesAsClean, judgedWith } from "./env-judge.ts";

const KEY = "-----BEGIN OPENSSH PRIVATE KEY----- FAKEFAKE";
const { base, ws, home } = gitWorkspace(
  "airlock-r19groff-",
  {
    "README.md": "# demo\n",
    "tmac/man.local": "", // filled below: it names the home directory, known only now
    "tmac/an-ext.tmac": "",
    "tools/xtroff": '#!/bin/sh\necho RAN-PREFIX >&2\nexec troff "$@"\n',
  },
  { ".ssh/id_ed25519": `${KEY}\n` },
);
afterAll(() => rmSync(base, { recursive: true, force: true }));
chmodSync(join(ws, "tools/xtroff"), 0o755);

const judged = judgedWith(ws, home);

const tmac = join(ws, "tmac");
const CASES: [string, string, string][] = [
  ["GROFF_TMAC_PATH", tmac, "man --no-hyphenation ls"],
  ["GROFF_TMAC_PATH", `/usr/share/groff/site-tmac:${tmac}`, "man ls"],
  ["GROFF_TMAC_PATH", tmac, "git help log"],
  ["GROFF_TMAC_PATH", tmac, "nroff -man README.md"],
  ["GROFF_FONT_PATH", ws, "man ls"],
  ["GROFF_BIN_PATH", join(ws, "tools"), "man ls"],
  ["GROFF_COMMAND_PREFIX", join(ws, "tools/x"), "man ls"],
  ["GROFF_COMMAND_PREFIX", "tools/x", "man ls"],
  ["MANROFFOPT", `-M${tmac}`, "man ls"],
];

describe("groff's variables naming workspace files man's formatter loads", () => {
  itAsksForVariables(judged, ws, CASES, [
    ["GROFF_TMAC_PATH", tmac, "tmac/an-ext.tmac"],
    ["GROFF_FONT_PATH", ws, "devutf8/DESC"],
    ["GROFF_BIN_PATH", join(ws, "tools"), "tools/troff"],
    ["GROFF_COMMAND_PREFIX", join(ws, "tools/x"), "tools/xtroff"],
  ]);
});

const installed = (program: string) => spawnSync("sh", ["-c", `command -v ${program}`]).status === 0;

describe("man does load them (the proof, where installed)", () => {
  const run = (env: Record<string, string>) =>
    spawnSync("man", ["--no-hyphenation", "ls"], {
      cwd: ws,
      env: { PATH: "/usr/bin:/bin", HOME: home, MANPAGER: "cat", ...env },
      encoding: "utf8",
    });
  const so = `.so ${join(home, ".ssh/id_ed25519")}\n`;

  it.runIf(installed("man") && installed("groff"))("a macro file's .so prints the key", () => {
    for (const name of ["man.local", "an-ext.tmac"]) writeFileSync(join(tmac, name), so);
    expect(run({ GROFF_TMAC_PATH: tmac }).stdout).toContain("FAKEFAKE");
    expect(run({ MANROFFOPT: `-M${tmac}` }).stdout).toContain("FAKEFAKE");
    expect(run({}).stdout).not.toContain("FAKEFAKE");
  });

  it.runIf(installed("man") && installed("groff"))("a prefixed troff runs", () => {
    expect(run({ GROFF_COMMAND_PREFIX: join(ws, "tools/x") }).stderr).toContain("RAN-PREFIX");
  });
});

describe("everyday values: judged as with a clean environment", () => {
  itJudgesAsClean(judged, [
    ["GROFF_TMAC_PATH", "/usr/share/groff/site-tmac", "man ls"],
    ["GROFF_FONT_PATH", "/usr/share/groff/site-font", "man ls"],
    ["GROFF_COMMAND_PREFIX", "g", "man ls"],
    ["GROFF_TMAC_PATH", tmac, "ls tmac"],
  ]);

  it("man ls is allowed with a clean environment (the cases above could ask)", () => {
    expect(judged({}, { command: "man ls" }).action).toBe("allow");
  });
});
