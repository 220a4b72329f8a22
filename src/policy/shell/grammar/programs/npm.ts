// npm (9.x): `run`/`test`/`start` run package.json scripts; `ci`/`install` run dependencies'
// lifecycle scripts; `ls`, `view`, `outdated`, `config get`… only read. `exec`/`npx` are wrappers
// (wrappers.ts: the command they run is judged on its own). npm's option parser (nopt) accepts
// abbreviations of long options.
import { runner } from "../runner.ts";
import type { NotUnderstood, Parsed } from "../spec.ts";
import { flag, opt } from "../spec.ts";

/** Subcommands that only read, but over the network: each is an HTTP request to a registry (red team, round 5). */
const REGISTRY = new Set(["view", "info", "show", "v", "outdated", "audit", "doctor"]);

/**
 * `npm version` alone prints versions; with a new version (`patch`, `9.9.9`, `from-git`) it runs the
 * preversion/version/postversion scripts, rewrites package.json and commits and tags, and git's hooks run
 * there as on the `git commit` the judge asks for (red team, round 14, r14-18).
 */
function bumpsVersion(p: Parsed): NotUnderstood | null {
  const [first, release] = p.operands;
  if (first?.value !== "version" || release === undefined) return null;
  return {
    word: release.raw,
    reason: `npm version ${release.value ?? release.raw} runs the project's version scripts, rewrites package.json and commits and tags with git (running git's hooks)`,
  };
}

/**
 * `npm pkg get [KEY…]` prints fields of the package.json it runs by; `set`, `delete` and `fix` rewrite it.
 * Not with a workspace option: the members' package.json files may be anywhere its globs reach.
 */
function editsPackage(p: Parsed): NotUnderstood | null {
  const [first, action] = p.operands;
  if (first?.value !== "pkg") return null;
  if (action?.value !== "get")
    return { word: action?.raw ?? first.raw, reason: "npm pkg other than get rewrites package.json" };
  const workspace = p.options.find((o) => /^(-w|--workspaces?)$/.test(o.name));
  return workspace === undefined
    ? null
    : {
        word: workspace.word.raw,
        reason: "npm pkg get with a workspace option reads every member's package.json",
      };
}

/** `npm fund` prints the tree's funding URLs; `npm fund PKG` opens PKG's in the browser npm's `browser` names. */
function opensFunding(p: Parsed): NotUnderstood | null {
  const [first, pkg] = p.operands;
  if (first?.value !== "fund" || pkg === undefined) return null;
  return {
    word: pkg.raw,
    reason: "npm fund PKG opens the funding URL with the program npm's browser setting names",
  };
}

/** `npm config get`/`list` print settings (secret-output.ts judges which); `set`, `delete`, `edit`, `fix` write ~/.npmrc. */
const CONFIG_READS = new Set(["get", "list", "ls"]);

/** Subcommands whose `-g` only lists the global tree or prints its directory (`npm ls -g --depth=0`). */
const GLOBAL_LISTINGS = new Set(["ls", "list", "ll", "la", "root", "prefix"]);

/**
 * `-g` points npm at the global prefix: understood only for the listings above, which print names and
 * versions; with another subcommand it installs, runs or reads the global configuration (its tokens).
 */
function globalOtherThanListing(p: Parsed): NotUnderstood | null {
  const global = p.options.find((o) => o.name === "-g" || o.name === "--global");
  const first = p.operands[0];
  if (global === undefined || GLOBAL_LISTINGS.has(first?.value ?? "")) return null;
  return { word: global.word.raw, reason: "npm -g here works on the global prefix, not only lists it" };
}

function writesConfig(p: Parsed): NotUnderstood | null {
  const [first, action] = p.operands;
  if (first?.value !== "config" || CONFIG_READS.has(action?.value ?? "")) return null;
  return {
    word: action?.raw ?? first.raw,
    reason: "npm config other than get or list writes npm's configuration (or opens it in an editor)",
  };
}

/** `npm run` (or `run-script`) with no script name lists package.json's scripts and runs none of them. */
function listsScripts(p: Parsed): boolean {
  const [first, script] = p.operands;
  return (first?.value === "run" || first?.value === "run-script") && script === undefined;
}

export const npm = runner({
  names: ["npm"],
  options: [
    ...[
      "-s --silent",
      "-q --quiet",
      "--json",
      "--if-present",
      "--ignore-scripts",
      "--no-fund",
      "--no-audit",
    ].map((n) => flag(n)),
    ...[
      "-D --save-dev",
      "-E --save-exact",
      "-P --save-prod",
      "-O --save-optional",
      "--no-save",
      "--workspaces",
    ].map((n) => flag(n)),
    ...[
      "--include-workspace-root",
      "--prefer-offline",
      "--offline",
      "--foreground-scripts",
      "--long",
      "-l",
    ].map((n) => flag(n)),
    ...[
      "--all -a",
      "--production",
      "--legacy-peer-deps",
      "--strict-peer-deps",
      "--dry-run",
      "--parseable -p",
    ].map((n) => flag(n)),
    flag("-v"),
    flag("-g --global"),
    // Not --registry: the host the request goes to (red team, round 5).
    opt("-w --workspace --loglevel --omit --include --depth --tag"),
  ],
  abbreviate: true,
  subcommands: {
    run: true,
    "run-script": true,
    test: true,
    t: true,
    tst: true,
    start: true,
    stop: true,
    restart: true,
    ci: true,
    install: true,
    i: true,
    "install-test": true,
    it: true,
    rebuild: true,
    publish: true,
    pack: true,
    audit: false,
    doctor: false,
    config: false,
    pkg: false,
    token: false,
    ls: false,
    list: false,
    ll: false,
    la: false,
    view: false,
    info: false,
    show: false,
    outdated: false,
    why: false,
    explain: false,
    root: false,
    prefix: false,
    bin: false,
    help: false,
    version: false,
    // The installed tree as `ls` reads it (proven with strace: no connection, no program run).
    query: false,
    fund: false,
  },
  definedBy: ["package.json", "package-lock.json", "node_modules"],
  runsNothingOfTheProject: listsScripts,
  check(p) {
    const first = p.operands[0];
    if (first !== undefined && REGISTRY.has(first.value ?? ""))
      return {
        word: first.raw,
        reason: `npm ${first.value} sends requests to the package registry (the one .npmrc names, or a URL its spec gives) and writes npm's cache and logs outside the project`,
      };
    return (
      globalOtherThanListing(p) ?? bumpsVersion(p) ?? editsPackage(p) ?? writesConfig(p) ?? opensFunding(p)
    );
  },
});
