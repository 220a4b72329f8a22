// What a linter's configuration names for it to read (red team, round 20, r20-s05: a biome.json with
// `"extends": ["../home/.netrc"]` made `biome check .` print the secret in its parse errors). One row per
// linter: its config files' names and format. Every string a config holds is taken for a path from the
// config's directory, whatever its key (extends, plugins, vcs.root, cache-dir, include globs), so a key
// this table never learnt is judged too; a config not parsed exactly is not understood. Pure:
// guards/linter-configs.ts finds the files (in the directory the linter runs in, above it and below it)
// and looks at what they name on disk.
import { parse as parseToml } from "smol-toml";
import { parseAllDocuments } from "yaml";
import type { DiskTarget } from "./call-facts.ts";
import { normalizePath } from "./paths.ts";
import type { ExecUnit } from "./shell/units.ts";
import { unitDir } from "./unit-dir.ts";

interface LinterRow {
  /** Config file names, looked for in every directory the linter reads (both linters nest configs). */
  names: readonly string[];
  /** The part of a parsed file that is this linter's, or null when the file has none. */
  own(name: string, text: string): unknown | null;
  /** Keys whose bare (not `./`, `../`, `/`) values name a package resolved through node_modules. */
  modules?: readonly string[];
  /** Values of those keys that name no file (biome 2's `"//"`: the root configuration, found upward). */
  keywords?: readonly string[];
  /** Keys whose values are files of this same format, whose own names count too (an extends chain). */
  chains: readonly string[];
  /** Top-level keys that choose which files its walk reads, by name (walk-styles.ts): a config with one asks. */
  selects?: readonly string[];
  /** Keys whose values are patterns the linter matches names against, never opens (yamllint's `ignore`). */
  patterns?: readonly string[];
  /** Its relative paths are opened from the directory it runs in too, not only from the config's (yamllint). */
  fromCwd?: true;
}

function record(v: unknown): Record<string, unknown> | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** A YAML file's documents as data; one with an error or a warning (an unknown tag) is not parsed exactly. */
function yamlDocuments(text: string): unknown[] {
  return parseAllDocuments(text, { logLevel: "silent" }).map((d) => {
    const doubt = d.errors[0] ?? d.warnings[0];
    if (doubt !== undefined) throw doubt;
    return d.toJS() as unknown;
  });
}

export const LINTERS: Readonly<Record<string, LinterRow>> = {
  // biome 2.6.8 (run here): biome.json(c) in the directory and, with `"root": false`, nested ones below it
  // (a nested `extends` outside printed the file too). Comments (JSONC) are not parsed here: such a file asks.
  biome: {
    names: ["biome.json", "biome.jsonc"],
    own: (_name, text) => JSON.parse(text) as unknown,
    modules: ["extends"],
    keywords: ["//"],
    chains: ["extends"],
  },
  // ruff: ruff.toml/.ruff.toml whole, pyproject.toml's [tool.ruff]; `extend` names another such file, and
  // each directory's nearest config applies to the files below it (hierarchical configuration).
  ruff: {
    names: ["pyproject.toml", "ruff.toml", ".ruff.toml"],
    own: (name, text) => {
      const doc = parseToml(text) as unknown;
      if (name !== "pyproject.toml") return doc;
      return record(record(record(doc)?.tool)?.ruff) ?? null;
    },
    chains: ["extend"],
    selects: ["include", "extend-include"],
  },
  // shfmt: EditorConfig files above each file it formats hold formatting values only (mvdan.cc/editorconfig
  // names no file): nothing named, but each file itself must be no link out of the workspace or to a secret.
  shfmt: { names: [".editorconfig"], own: () => null, chains: [] },
  // hadolint: `.hadolint.yaml`/`.yml` of the directory it runs in (rule codes, registries, label schemas).
  // clang-format: `.clang-format`/`_clang-format` (YAML, one document per language) above each file.
  "clang-format": {
    names: [".clang-format", "_clang-format"],
    own: (_name, text) => yamlDocuments(text),
    chains: [],
  },
  // yamllint (yamllint/cli.py, config.py): `.yamllint`, `.yamllint.yaml`, `.yamllint.yml` in the directory
  // it runs in or above (to HOME); `extends` names a preset or a file, `ignore-from-file` files, both
  // opened from the directory it runs in.
  yamllint: {
    names: [".yamllint", ".yamllint.yaml", ".yamllint.yml"],
    own: (_name, text) => yamlDocuments(text),
    chains: ["extends"],
    // gitignore-style patterns (pathspec's gitwildmatch), top level and per rule: `/vendor/` is anchored.
    patterns: ["ignore", "yaml-files"],
    selects: ["yaml-files"],
    fromCwd: true,
  },
  hadolint: {
    names: [".hadolint.yaml", ".hadolint.yml"],
    own: (_name, text) => yamlDocuments(text),
    chains: [],
  },
  // shellcheck 0.9.0: `.shellcheckrc`/`shellcheckrc` in each script's directory or above, `key=value` lines.
  // `external-sources=true` is `-x` from the file (red team, round 22, r22-01: `shellcheck s.sh` then opened
  // what the script's `source` lines and `# shellcheck source=` directives name, ~/.aws/credentials too), so it
  // is refused as -x is; `source-path` names directories.
  shellcheck: {
    names: [".shellcheckrc", "shellcheckrc"],
    own: (_name, text) => shellcheckrc(text),
    chains: [],
  },
};

/** A setting a config holds that the judge refuses as it refuses the option on the command line. */
class Refused extends Error {}

const SHELLCHECKRC_KEYS = new Set(["disable", "enable", "shell", "source-path", "external-sources"]);

/** A shellcheckrc's `source-path` values; one that turns external sources on, or any line not read exactly, throws. */
function shellcheckrc(text: string): { "source-path": string[] } {
  const paths: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-z-]+)=(\S*)$/.exec(line);
    if (m === null || !SHELLCHECKRC_KEYS.has(m[1] as string)) throw new Error(`not a known setting: ${line}`);
    const [, key, value] = m as unknown as [string, string, string];
    if (key === "external-sources" && value !== "false")
      throw new Refused("`external-sources` follows every file a script sources, as -x does");
    if (key === "source-path" && value !== "SCRIPTDIR") paths.push(value);
  }
  return { "source-path": paths };
}

/** What one config names: absolute paths (lexical, from its directory), the chained ones among them, or why not known. */
export type ConfigNames = { paths: string[]; chained: string[] } | { unknown: string };

interface Found {
  key: string;
  value: string;
}

/**
 * Every string below `v` with the nearest key it sits under (an array's items under the array's); none
 * under a key in `skipped`. A top-level `$schema` is for editors: biome never reads it.
 */
function strings(v: unknown, key: string, skipped: readonly string[], out: Found[]): void {
  if (typeof v === "string") out.push({ key, value: v });
  else if (Array.isArray(v)) for (const x of v) strings(x, key, skipped, out);
  else if (typeof v === "object" && v !== null)
    for (const [k, x] of Object.entries(v))
      if (!skipped.includes(k) && (key !== "" || k !== "$schema")) strings(x, k, skipped, out);
}

/** A config value as the path it names from `dir`, or why it names something not judged here. */
function pathOf(f: Found, row: LinterRow, dir: string, home: string | null): string | { why: string } {
  const v = f.value;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) return { why: `\`${f.key}\` names the URL \`${v}\`` };
  if (v.startsWith("~")) {
    if (home === null || !/^~(\/|$)/.test(v))
      return { why: `\`${f.key}\` names \`${v}\`, a home not known here` };
    return normalizePath(home + v.slice(1));
  }
  if (row.modules?.includes(f.key) && !/^(\.{1,2}\/|\/)/.test(v))
    return {
      why: `\`${f.key}\` names \`${v}\`, a package node_modules resolves, whose files are not looked at here`,
    };
  return normalizePath(v.startsWith("/") ? v : `${dir}/${v}`);
}

/**
 * The paths the config `text` (the file `name` in `dir`) names for `linter`: every string it holds, from
 * `dir`; a bare package name under a module key, a URL, or a file not parsed exactly is not known.
 */
export function linterConfigNames(
  linter: string,
  name: string,
  text: string,
  dir: string,
  home: string | null,
): ConfigNames {
  const row = LINTERS[linter];
  if (row === undefined) return { unknown: `${linter} has no configuration row` };
  let own: unknown;
  try {
    own = row.own(name, text);
  } catch (e) {
    if (e instanceof Refused) return { unknown: `\`${name}\`: ${e.message}` };
    return {
      unknown: `\`${name}\` is not parsed here exactly (comments or a syntax error), so what it names is not known`,
    };
  }
  // A YAML file's documents each stand at the top.
  const tops = Array.isArray(own) ? own : [own];
  const selecting = row.selects?.find((k) => tops.some((t) => Object.hasOwn(record(t) ?? {}, k)));
  if (selecting !== undefined)
    return {
      unknown: `\`${name}\` sets \`${selecting}\`, which chooses the files ${linter} reads: not walked here`,
    };
  const found: Found[] = [];
  strings(own, "", row.patterns ?? [], found);
  const out = { paths: [] as string[], chained: [] as string[] };
  for (const f of found) {
    if (row.keywords?.includes(f.value) && row.modules?.includes(f.key)) continue;
    const p = pathOf(f, row, dir, home);
    if (typeof p !== "string") return { unknown: `\`${name}\`: ${p.why}` };
    out.paths.push(p);
    if (row.chains.includes(f.key)) out.chained.push(p);
  }
  return out;
}

/** A linter the table knows run by this unit (its check forms and its writing ones alike read the config). */
export function linterConfigTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  const linter = unit.program.slice(unit.program.lastIndexOf("/") + 1);
  if (!Object.hasOwn(LINTERS, linter)) return [];
  const dir = unitDir(unit, callCwd, home, `${linter} reads the configuration of a directory not known here`);
  if (typeof dir !== "string") return dir;
  return [{ kind: "linter-config", linter, dir, shown: unit.text }];
}
