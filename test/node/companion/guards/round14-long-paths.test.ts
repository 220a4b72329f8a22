// Red team, round 14 (r14-19): a link at a relative path whose absolute form is longer than PATH_MAX. The
// judge resolves paths by their absolute name, which fails with ENAMETOOLONG; that failure was taken for
// "nothing there", so `cat`, a deep glob, `grep -R` and `echo >>` through the link (onto ~/.netrc, onto
// ~/.bashrc) ran unasked, while bash opens the same name relative to its working directory. A path the disk
// check cannot resolve now asks; everyday reads beside it stay allowed.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { realPathOf } from "../../../../src/companion/guards/real-path.ts";
import { gitWorkspace, starterActions } from "./disk-fixture.ts";

const NETRC = "machine github.com login u password ghp_FAKE\n";
const { base, ws, home } = gitWorkspace(
  "airlock-rt14-long-",
  { "README.md": "# app\n", "src/a.txt": "hello\n" },
  { ".netrc": NETRC, ".bashrc": "# rc\n" },
);
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** 16 names of 250 characters and one of 62: 4,084 characters, past PATH_MAX once the workspace is before it. */
const LONG = `${`${"d".repeat(250)}/`.repeat(16)}${"e".repeat(62)}`;
// Made relative to the workspace, as bash and git make it: the absolute name is too long for mkdir(2).
execFileSync(
  "bash",
  [
    "-c",
    `mkdir -p "$1" && ln -s "$2/.netrc" "$1/n.txt" && ln -s "$2/.bashrc" "$1/setup.sh"`,
    "_",
    LONG,
    home,
  ],
  { cwd: ws },
);

const actions = (command: string) => starterActions(command, ws, home);

const DEEP_GLOB = `cat ${"*/".repeat(17)}n.txt`;

describe("a path longer than PATH_MAX", () => {
  it("real bash reads and appends through the link by its relative name", () => {
    expect(execFileSync("bash", ["-c", DEEP_GLOB], { cwd: ws, encoding: "utf8" })).toContain("ghp_FAKE");
    execFileSync("bash", ["-c", 'echo "echo PWNED" >> "$1/setup.sh"', "_", LONG], { cwd: ws });
    expect(readFileSync(join(home, ".bashrc"), "utf8")).toContain("PWNED");
  });

  it("is not resolved as if nothing were there", () => {
    const r = realPathOf(join(ws, LONG, "n.txt"));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain("ENAMETOOLONG");
  });

  it.each([
    `cat ${LONG}/n.txt`,
    DEEP_GLOB,
    "grep -Rn machine . --exclude-dir=.git",
    "grep -rn machine . --exclude-dir=.git",
    `echo "echo PWNED" >> ${LONG}/setup.sh`,
  ])("does not run unasked: %s", (command) => {
    // A deep glob also looks like a secret's path to the words alone, and is denied.
    expect(actions(command).map((a) => a.replace(/deny$/, "ask"))).toEqual([
      "balanced: ask",
      "autonomous: ask",
    ]);
  });

  it.each(["cat README.md", "grep -rn hello src", "cat src/*.txt"])(
    "an everyday read stays allowed: %s",
    (command) => {
      expect(actions(command)).toEqual(["balanced: allow", "autonomous: allow"]);
    },
  );
});
