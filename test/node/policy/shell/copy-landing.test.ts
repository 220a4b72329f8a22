// A copy or move into a directory writes the file under its own name there: `cp tasks.json .vscode` writes
// .vscode/tasks.json, which VS Code runs at folder open. Found after red team round 16 (the autonomous starter
// allowed it: only `.vscode`, the directory, was judged). Real cp and mv are the oracle: whatever protected
// file a real run makes, the judge must not allow.
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { isProtectedWritePath } from "../../../../src/policy/secret-paths.ts";
import { cleanBashRuns, runInBash } from "./bash-proof.ts";
import { AUTONOMOUS, BALANCED, judge } from "./policies.ts";

afterAll(cleanBashRuns);

/** A source file named as a protected file is once it lands in its directory. */
const LANDINGS = [
  { file: "tasks.json", dir: ".vscode" },
  { file: "pre-commit", dir: ".husky" },
  { file: "settings.json", dir: ".claude" },
  { file: "post-checkout", dir: ".git/hooks" },
  { file: "config.toml", dir: ".cargo" },
];
const DIRS = [".vscode", ".husky", ".claude", ".git/hooks", ".cargo", "src"];
const FILES: Record<string, string> = Object.fromEntries([
  ...LANDINGS.map((l) => [l.file, "x\n"]),
  ...DIRS.map((d) => [`${d}/.keep`, ""]),
  ["notes.txt", "n\n"],
]);

/** Every file below `dir`, relative to it. */
function filesBelow(dir: string, under = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesBelow(path, under) : [relative(under, path)];
  });
}

/** Protected files the command really wrote (new ones: the set-up's own are `.keep`s). */
function protectedMade(command: string): string[] {
  const run = runInBash(command, { files: FILES });
  return filesBelow(run.dir).filter(
    (f) => !f.endsWith(".keep") && f.includes("/") && isProtectedWritePath(f),
  );
}

const SPELLINGS: ((file: string, dir: string) => string)[] = [
  (f, d) => `cp ${f} ${d}`,
  (f, d) => `cp ${f} ${d}/`,
  (f, d) => `cp -t ${d} ${f}`,
  (f, d) => `cp --target-directory=${d} ${f}`,
  (f, d) => `cp -f notes.txt ${f} ${d}`,
  (f, d) => `cp -r ${f} ${d}`,
  (f, d) => `cp --parents ${f} ${d}`,
  (f, d) => `mv ${f} ${d}`,
  (f, d) => `mv -t ${d}/ ${f}`,
  (f, d) => `cp ./${f} ./${d}//`,
];

describe("a copy into a directory writes the file there under its own name", () => {
  it("real cp puts tasks.json in .vscode (the proof)", () => {
    expect(protectedMade("cp tasks.json .vscode")).toEqual([".vscode/tasks.json"]);
  });

  it("never allows a copy or move whose real run makes a protected file", () => {
    let made = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...LANDINGS),
        fc.constantFrom(...DIRS),
        fc.constantFrom(...SPELLINGS),
        ({ file }, dir, spell) => {
          const command = spell(file, dir);
          if (protectedMade(command).length === 0) return;
          made++;
          expect(judge(AUTONOMOUS, command).action, command).not.toBe("allow");
          expect(judge(BALANCED, command).action, command).not.toBe("allow");
        },
      ),
      { numRuns: 60 },
    );
    expect(made).toBeGreaterThan(0);
  });

  // (A tree copied or moved, `cp -r src dst`, asks here only for its recursive read: the disk decides that.)
  it("copies of ordinary files into ordinary directories stay allowed under autonomous", () => {
    for (const command of [
      "cp notes.txt src/",
      "cp a.txt b.txt src",
      "cp -t build notes.txt",
      "cp src/a.ts src/b.ts lib/",
      "cp --parents src/a.ts build",
      "cp notes.txt notes.bak",
    ])
      expect(judge(AUTONOMOUS, command).action, command).toBe("allow");
  });

  it("-T names the destination file itself: nothing lands below it", () => {
    expect(judge(AUTONOMOUS, "cp -T notes.txt out.txt").action).toBe("allow");
    expect(judge(AUTONOMOUS, "cp -T tasks.json .vscode/tasks.json").action).not.toBe("allow");
  });
});
