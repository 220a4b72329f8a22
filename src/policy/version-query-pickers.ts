// The files by which a project picks what a version query runs: `yarn --version`, `pnpm --version` and
// `rustup show` read them in the directory they run in or above (grammar/programs/package-managers.ts,
// rustup.ts), as corepack's npm shim reads package.json for every npm command. Each is a `picker` disk target: one there (whose text matches, where a pattern is given)
// keeps the call asking.
import type { DiskTarget } from "./call-facts.ts";
import { resolveShellDir } from "./paths.ts";
import type { ExecUnit } from "./shell/units.ts";

type Picker = Omit<Extract<DiskTarget, { kind: "picker" }>, "kind" | "dir" | "shown">;

/**
 * A key spelled with a YAML escape (`"yarn\u0050ath"`) or a JSON one is the same key: any backslash in a
 * YAML file, any `\u` in package.json counts. An .npmrc key may be an environment variable (`${X}=…`).
 */
const YAML_ESCAPE = "|\\\\";
const JSON_ESCAPE = "|\\\\u";
const NPMRC_VARIABLE_KEY = "|^[^=\\n]*\\$\\{";

/** package.json's packageManager: corepack, and pnpm itself, download and run the version it names. */
const PACKAGE_MANAGER_FIELD = {
  names: ["package.json"],
  contains: `"packageManager"${JSON_ESCAPE}`,
  picks: "names a packageManager version, which corepack (and pnpm) downloads and runs",
};

const YARN: readonly Picker[] = [
  {
    names: [".yarnrc.yml", ".yarnrc"],
    contains: `[Yy]arn-?[Pp]ath|[Pp]lugins${YAML_ESCAPE}`,
    picks: "may name a file yarn runs on every command, --version too (yarnPath, yarn-path, plugins)",
  },
  PACKAGE_MANAGER_FIELD,
];

/**
 * corepack's npm and npx shims (`corepack enable npm`, red team round 20, r20-01) download and run the npm
 * release package.json's packageManager (or devEngines.packageManager) names, on every command, `npm
 * --version` too. npm itself reads neither: only the shim's presence on PATH makes the field count.
 */
const COREPACK_NPM = (program: string): Picker => ({
  names: ["package.json"],
  contains: `"packageManager"\\s*:\\s*"npm@|"devEngines"${JSON_ESCAPE}`,
  picks: "names an npm release, which corepack's npm shim (the npm on PATH here) downloads and runs",
  shim: { program, holds: "/corepack/" },
});

const PICKERS: Readonly<Record<string, readonly Picker[]>> = {
  npm: [COREPACK_NPM("npm")],
  npx: [COREPACK_NPM("npx")],
  yarn: YARN,
  yarnpkg: YARN,
  pnpm: [
    {
      names: [".pnpmfile.cjs", ".pnpmfile.mjs"],
      picks: "is code pnpm loads on every command, --version too",
    },
    {
      names: ["pnpm-workspace.yaml"],
      contains: `[Pp]npmfile|[Cc]onfig-?[Dd]ependencies|[Pp]ackage-?[Mm]anager${YAML_ESCAPE}`,
      picks: "may name code pnpm loads or a pnpm version it installs on every command",
    },
    {
      names: [".npmrc"],
      contains: `[Pp]npmfile|[Cc]onfig-?[Dd]ependencies|[Pp]ackage-?[Mm]anager${NPMRC_VARIABLE_KEY}`,
      picks: "may name code pnpm loads or a pnpm version it installs on every command",
    },
    { ...PACKAGE_MANAGER_FIELD, contains: `"packageManager"|"pnpm"\\s*:${JSON_ESCAPE}` },
  ],
  // rustup's own message (disk-view.ts): the toolchain it looks up, a `path` it runs or a channel it installs.
  rustup: [{ names: ["rust-toolchain.toml", "rust-toolchain"] }],
};

/** The picker files of a version query's program, in the directory it runs in (not known: it asks). */
export function versionQueryPickers(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  const pickers = Object.hasOwn(PICKERS, unit.program) ? PICKERS[unit.program] : undefined;
  if (pickers === undefined) return [];
  const dir = resolveShellDir(unit.cwd, callCwd, home);
  if (dir === null)
    return [
      {
        kind: "unknown",
        shown: unit.text,
        reason: `it runs in a directory not known here, where a file may pick what ${unit.program} runs`,
      },
    ];
  return pickers.map((p) => ({ kind: "picker", dir, ...p, shown: unit.text }));
}
