// Over-ask, round 19 (fix20e): everyday calls that asked. The real programs are the oracle for what each
// grammar leans on; every allowed form has its dangerous variant beside it, still asking.
import { homedir } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/index.ts";
import type { ExecUnit } from "../../../../src/policy/shell/units.ts";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { BALANCED, judge } from "./policies.ts";
import { has } from "./proven-case.ts";

afterAll(cleanBashRuns);

/** The named program's unit effects as `access path`, or null when not understood. */
function effects(command: string, program: string): string[] | null {
  const unit = analyzeShell(command).units.find(
    (u): u is ExecUnit => u.kind === "exec" && u.program === program,
  );
  if (unit === undefined || unit.notUnderstood !== undefined) return null;
  return (unit.effects?.paths ?? []).map((e) => `${e.access} ${e.arg.value}`);
}

describe("more", () => {
  it.runIf(has("more"))("with no terminal copies its files and never reads a key (`!cmd`) from stdin", () => {
    const run = runInBash("more f", { files: { f: "hello\n" }, stdin: "!touch PWNED\nv\n" });
    expect(run.stdout).toContain("hello");
    expect(run.exists("PWNED")).toBe(false);
  });

  it.runIf(has("more"))("takes +NUM and +/TEXT out of its words wherever they stand, even after --", () => {
    const run = runInBash("more -- +/zz +2 -- f", { files: { f: "a\nzz\n" } });
    expect(run.stderr).not.toContain("+/zz");
    expect(run.stderr).toContain("cannot open --");
    expect(effects("more -- +/zz +2 -- f", "more")).toEqual(["read --", "read f"]);
  });

  it("reads its files as cat does: a workspace file is allowed, a secret or another file is not", () => {
    expect(judge(BALANCED, "more README.md").action).toBe("allow");
    expect(effects("more -5 -n 3 --squeeze README.md", "more")).toEqual(["read README.md"]);
    expect(judge(BALANCED, "more ~/.ssh/id_rsa").action).not.toBe("allow");
    expect(judge(BALANCED, "more /etc/shadow").action).not.toBe("allow");
  });

  it("MORE set by the command, or an option it does not know, stays asking", () => {
    expect(judge(BALANCED, "MORE=-x more README.md").action).not.toBe("allow");
    expect(effects("more --bogus README.md", "more")).toBeNull();
  });
});

const REPO = "git init -q . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m x && ";
const COMMITS = `${REPO}echo a > f && git add f && git -c user.email=a@b -c user.name=a commit -qm f && `;

describe("git's printing subcommands", () => {
  it.runIf(has("git"))("format-patch writes a file per commit unless --stdout is in effect", () => {
    expect(runInBash(`${COMMITS}git format-patch --stdout -1`).stdout).toContain("Subject: [PATCH] f");
    expect(runInBash(`${COMMITS}git format-patch --stdout -1 && ls`).stdout).not.toContain(".patch");
    expect(runInBash(`${COMMITS}git format-patch --stdout --no-stdout -1 && ls`).stdout).toContain(
      "0001-f.patch",
    );
    expect(effects("git format-patch --stdout -1", "git")).toEqual(["walk .", "walk .git"]);
    for (const writes of [
      "git format-patch -1",
      "git format-patch --stdout --no-stdout -1",
      "git format-patch --stdout --no-std -1",
      "git format-patch --stdout -o out -1",
      "git format-patch --stdout --output-directory=out -1",
      "git format-patch --stdout --signature-file=/etc/passwd -1",
    ])
      expect(effects(writes, "git"), writes).toBeNull();
  });

  it.runIf(has("git"))("interpret-trailers runs a configured trailer command even with no --trailer", () => {
    const setup = `${REPO}printf 's\\n\\nb\\n' > m && git config trailer.x.command 'touch PWNED' && `;
    expect(runInBash(`${setup}git interpret-trailers m`).exists("PWNED")).toBe(true);
    expect(runInBash(`${REPO}printf 's\\n\\nb\\n' > m && git interpret-trailers m`).exists("PWNED")).toBe(
      false,
    );
    expect(effects("git interpret-trailers --trailer 'a: b' --where end m", "git")).toEqual([
      "read m",
      "walk .git",
    ]);
    expect(effects("git interpret-trailers --in-place m", "git")).toBeNull();
  });

  it("range-diff and stripspace are understood; range-diff's --ext-diff and --textconv are not", () => {
    expect(effects("git range-diff HEAD~1 HEAD", "git")).toEqual(["walk .", "walk .git"]);
    expect(effects("git stripspace -s", "git")).toEqual(["walk .git"]);
    expect(effects("git range-diff --ext-diff A..B C..D", "git")).toBeNull();
    expect(effects("git range-diff --textconv A..B C..D", "git")).toBeNull();
    expect(effects("git stripspace f", "git")).toBeNull();
  });

  it("the balanced starter allows them", () => {
    for (const command of [
      "git range-diff HEAD~1 HEAD",
      "git format-patch --stdout -1",
      "git stripspace < README.md",
      "git interpret-trailers README.md",
    ])
      expect(judge(BALANCED, command).action, command).toBe("allow");
    expect(judge(BALANCED, "git format-patch -1").action).not.toBe("allow");
  });
});

describe("npm fund and npm query read the installed tree as npm ls does", () => {
  it("are allowed; npm fund PKG (opens a browser) and -g are not understood", () => {
    expect(judge(BALANCED, "npm fund").action).toBe("allow");
    expect(judge(BALANCED, "npm query .prod").action).toBe("allow");
    expect(effects("npm fund left-pad", "npm")).toBeNull();
    expect(effects("npm query .prod -g", "npm")).toBeNull();
    expect(effects("npm fund --which 1", "npm")).toBeNull();
  });
});

describe("pytest --version keeps asking", () => {
  // pytest 7+ prints its version early only for exactly one `--version`; `--version --version` (and older
  // pytests) load the project's conftest.py first, so the judge, which cannot see the installed version,
  // keeps it a runner.
  it.runIf(has("pytest"))("a second --version runs conftest.py", () => {
    const files = { "conftest.py": 'open("PWNED", "w").write("x")\n' };
    // The agent's own PATH (and pyenv's root, which a shim finds through HOME otherwise) reaches pytest.
    const env = { PATH: process.env.PATH ?? "", PYENV_ROOT: process.env.PYENV_ROOT ?? `${homedir()}/.pyenv` };
    expect(runInBash("pytest --version", { files, env }).exists("PWNED")).toBe(false);
    expect(runInBash("pytest --version --version", { files, env }).exists("PWNED")).toBe(true);
    expect(judge(BALANCED, "pytest --version").action).not.toBe("allow");
  });
});
