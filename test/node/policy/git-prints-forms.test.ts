// Properties of the two git forms whose printing this round narrowed (gitPrints): `git blame FILE` judged by
// FILE's work-tree copy only when nothing names another version, and `git reflog` skipping the history's
// content check only when nothing can print notes or patches.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gitPrints } from "../../../src/policy/git-targets.ts";
import { analyzeShell } from "../../../src/policy/shell/analysis.ts";
import type { ExecUnit } from "../../../src/policy/shell/units.ts";

function prints(command: string, subcommand: string) {
  const unit = analyzeShell(command).units.find((u) => u.kind === "exec") as ExecUnit;
  return gitPrints(unit, subcommand);
}

const PRESENTATION = [
  "-w",
  "-M",
  "-C",
  "-s",
  "-e",
  "-f",
  "-n",
  "--porcelain",
  "--root",
  "--abbrev=8",
  "-L 1,3",
];
/** Words that make blame print another version than the work tree's copy. */
const OTHER_VERSION = [
  "HEAD~1",
  "main",
  "v1.0",
  "--reverse HEAD~2..HEAD",
  "-S revs.txt",
  "--contents other.ts",
];

describe("git blame FILE: the work-tree copy only", () => {
  it("property: blamedFile is set iff no word names another version and FILE is the one operand", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PRESENTATION), { maxLength: 4 }),
        fc.array(fc.constantFrom(...OTHER_VERSION), { maxLength: 2 }),
        fc.boolean(),
        (shown, other, dashes) => {
          const words = [...shown, ...other, ...(dashes ? ["--"] : []), "src/a.ts"];
          const p = prints(`git blame ${words.join(" ")}`, "blame");
          expect(p?.history, words.join(" ")).toBe(true);
          if (other.length === 0) expect(p?.blamedFile, words.join(" ")).toBe("src/a.ts");
          else expect(p?.blamedFile, words.join(" ")).toBeUndefined();
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a file given twice, or a glob, is not one work-tree copy", () => {
    expect(prints("git blame HEAD src/a.ts", "blame")?.blamedFile).toBeUndefined();
    expect(prints("git blame 'src/*.ts'", "blame")?.blamedFile).toBeUndefined();
  });
});

const PLAIN = [
  "-n 3",
  "-5",
  "--oneline",
  "--abbrev-commit",
  "--date=iso",
  "--all",
  "main",
  "HEAD@{2}",
  "show",
];
/** Words that print notes (blobs) or patches. */
const PRINTING = [
  "--format=%N",
  "--pretty=medium --notes",
  "--notes",
  "--show-notes",
  "-p",
  "--stat",
  "--format=%B",
];

describe("git reflog: plain forms only skip the history's check", () => {
  it("property: it prints nothing to check iff every word is a plain one", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PLAIN), { maxLength: 4 }),
        fc.array(fc.constantFrom(...PRINTING), { maxLength: 2 }),
        (plain, printing) => {
          const words = [...plain, ...printing];
          const p = prints(`git reflog ${words.join(" ")}`, "reflog");
          if (printing.length === 0) expect(p, words.join(" ")).toBeNull();
          else expect(p?.history, words.join(" ")).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
