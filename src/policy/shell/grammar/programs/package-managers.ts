// yarn (1.22 and 4.x) and pnpm (10.x), only `--version`/`-v`: every other form installs or runs the
// project's scripts. Even the version query can run a project's file (tried with both yarns and pnpm
// 10.34): yarn runs `.yarnrc.yml`'s yarnPath (yarn 1 also `.yarnrc`'s yarn-path) and yarn 4 loads its
// plugins; pnpm loads `.pnpmfile.cjs` (or the one its settings name) and installs the version
// package.json's packageManager asks for, as corepack does for both. Those files are the disk's to see
// (version-query-pickers.ts).
import { flag, type NotUnderstood, type Parsed, type ProgramGrammar } from "../spec.ts";

/** Anything but the version query: a subcommand, or yarn's bare install. */
function versionOnly(p: Parsed): NotUnderstood | null {
  const first = p.operands[0];
  if (first !== undefined)
    return {
      word: first.raw,
      reason: `${p.program} ${first.raw} installs packages or runs the project's scripts`,
    };
  return p.has("version")
    ? null
    : { word: p.program, reason: `${p.program} alone installs the project's packages` };
}

function versionQuery(names: readonly string[]): ProgramGrammar {
  return {
    names,
    options: [flag("-v --version", "version")],
    permute: false,
    abbreviate: false,
    operands: ["string"],
    effect: "read",
    finish: versionOnly,
  };
}

export const yarn = versionQuery(["yarn", "yarnpkg"]);
export const pnpm = versionQuery(["pnpm"]);
