// Over-ask, round 18: `npm ls -g --depth=0` asked ("unknown option -g"). With a listing (`ls`, `list`, `ll`,
// `la`, `root`, `prefix`) -g lists the global tree or prints its directory, names and versions only; with any
// other subcommand it installs, runs, or reads the global configuration, and stays not understood.
import { describe, expect, it } from "vitest";
import { analyzeShell } from "../../../../src/policy/index.ts";
import type { ExecUnit } from "../../../../src/policy/shell/units.ts";

/** Why the command's npm unit is not understood, or null when it is. */
function notUnderstood(command: string): string | null {
  const unit = analyzeShell(command).units.find((u): u is ExecUnit => u.kind === "exec");
  return unit?.notUnderstood?.reason ?? null;
}

describe("npm -g other than a listing is not understood", () => {
  it.each([
    "npm install -g left-pad",
    "npm i --global x",
    "npm rebuild -g",
    "npm audit -g",
    "npm run -g build",
  ])("%s", (command) => {
    expect(notUnderstood(command)).not.toBeNull();
  });
});

describe("npm's global listings are understood", () => {
  it.each(["npm ls -g --depth=0", "npm list --global", "npm ll -g", "npm root -g", "npm prefix -g"])(
    "%s",
    (command) => {
      expect(notUnderstood(command)).toBeNull();
    },
  );
});
