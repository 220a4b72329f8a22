// A listing of a secret directory's names: `ls ~/.ssh`, `find secrets`, the LS tool on ~/.password-store.
// The names alone say which keys, accounts and credentials exist, so such a listing asks, by the shell's
// listing programs and the file tools alike (red team, round 13: `ls ~/.ssh` ran while LS on ~/.ssh
// asked). A secret file's own name (`ls -la .env`) is not a listing of one: the agent already named it.

import type { DiskTarget } from "./call-facts.ts";
import { hasGlob } from "./glob-match.ts";
import { normalizePath, resolveShellDir, resolveShellPath } from "./paths.ts";
import { isDenylistedPath } from "./secret-paths.ts";
import { unitDirs } from "./shell/cwd.ts";
import type { Concern, ExecUnit } from "./shell/units.ts";
import type { ToolCall } from "./types.ts";

/**
 * Whether `path` is a secret directory or lies below one (`~/.ssh`, `~/.ssh/old`, `secrets/`). A glob by its
 * fixed leading directories (`~/.ssh/*`): one that may only expand to a secret directory (`ls ~/.ss*`,
 * `ls *`) lists it as a walk from above does (`find .`, `ls -R ~`), which is not judged by names here.
 */
export function inSecretDir(path: string): boolean {
  const dir = fixedDir(path);
  // Everything below a secret directory is denylisted.
  return dir !== "" && isDenylistedPath(`${dir}/_`);
}

/** A listed path's fixed leading directories (all of it without a glob), with no trailing slash. */
function fixedDir(path: string): string {
  const segments = path.split("/");
  const firstGlob = segments.findIndex(hasGlob);
  const dir = firstGlob < 0 ? path : segments.slice(0, firstGlob).join("/");
  return dir.replace(/\/+$/, "");
}

function unknownListing(shown: string, listed: string): Concern {
  return {
    mention: null,
    reason: `\`${shown}\` lists \`${listed}\`, a directory not known before it runs (after a \`cd\` not followed here, a \`..\` after one, or with no known home), which may be a secret one`,
  };
}

/**
 * A walk of names from the home directory or above it (`find ~`, `tree -a ..`, `du -a ..`, `ls -R /home`)
 * reaches HOME's hidden entries and prints the names inside them — `~/.ssh/id_ed25519`, the pass store's
 * accounts — as a listing of each would (red team, round 23). With no known home, the places homes are kept.
 */
export function walksAboveHome(path: string, home: string | null): boolean {
  const p = normalizePath(path);
  if (p === "/") return true;
  if (home !== null) return p === home || home.startsWith(`${p}/`);
  return /^\/(?:home|Users)(?:\/[^/]+)?$|^\/root$/.test(p);
}

function homeWalk(shown: string, walked: string): Concern {
  return {
    mention: "sensitive",
    reason: `\`${shown}\` walks the names below \`${walked}\`, which reaches the home directory's hidden entries (keys, credential stores): their names say what exists`,
  };
}

function concern(shown: string): Concern {
  return {
    mention: "sensitive",
    reason: `\`${shown}\` lists the names of a secret directory, which say what keys and credentials exist`,
  };
}

/**
 * The shell's listings and name walks (ls, find, du, tree, fd) whose operand is in a secret directory, in any
 * directory the unit may run in (`cd ~/.ssh; ls`: the cd may fail, so both). One the judge cannot know (after
 * `cd "$(…)"`, `cd -`, a loop that moves, or a `..` after a cd) may be a secret one: that listing asks too.
 */
export function secretListingConcerns(unit: ExecUnit, callCwd: string, home: string | null): Concern[] {
  for (const { raw, path, walks } of listedPaths(unit, callCwd, home)) {
    // A word only known at run time is not understood by the unit itself; a static one here is a place.
    if (path === null) return [unknownListing(unit.text, raw)];
    if (inSecretDir(path) || inSecretDir(normalizePath(path))) return [concern(unit.text)];
    if (walks && walksAboveHome(path, home)) return [homeWalk(unit.text, raw)];
  }
  return [];
}

/**
 * A word whose value names what a unit lists (`itself`: only its own name is printed, `ls -d`, `du -s`;
 * `walks`: the names below it at every depth, `find`, `ls -R`).
 */
type Listed = { raw: string; value: string; tilde: boolean; itself?: true; walks?: true };

/** What a listing's static operands name, in each directory the unit may run in (null: not known here). */
function listedPaths(
  unit: ExecUnit,
  callCwd: string,
  home: string | null,
): { raw: string; path: string | null; lists?: true; walks?: true }[] {
  const words: Listed[] = [];
  for (const e of unit.effects?.paths ?? []) {
    if (e.access !== "list" && !(e.access === "walk" && !e.contents)) continue;
    if (e.arg.value !== null)
      words.push({
        raw: e.arg.raw,
        value: e.arg.value,
        tilde: e.arg.tilde,
        ...(e.itself ? { itself: e.itself } : {}),
        // git's own walks (pathspecs) are judged against its index and history, not as a walk of the disk.
        ...(e.access === "walk" && !e.itself && !e.pathspec ? { walks: true as const } : {}),
      });
  }
  const dirs = unitDirs(unit) ?? [null];
  const out: { raw: string; path: string | null; lists?: true; walks?: true }[] = [];
  for (const w of [...words, ...completedNames(unit)])
    for (const cwd of dirs)
      out.push({
        raw: w.raw,
        path:
          resolveShellPath({ path: w.value, tilde: w.tilde, cwd }, callCwd, home) ??
          (w.tilde ? null : climbAfterCd(w.value, cwd, callCwd, home)),
        ...(w.itself ? {} : { lists: true as const }),
        ...(w.walks ? { walks: true as const } : {}),
      });
  // An unquoted glob in any word is replaced by the names it matches before the program runs: `echo
  // ~/.ssh/*`, `cd ~/.ssh; printf '%s\n' *`, `for f in ~/.ssh/*` (judged as its body with the glob in the
  // variable's place) print the same names `ls` would (red team, round 16). A glob under a home not known
  // here may be in one (as for `ls`); one relative to a directory not known is left alone (`cd "$(…)"; echo *`).
  for (const w of unit.words) {
    if (!w.glob || w.value === null) continue;
    for (const cwd of dirs) {
      const path = resolveShellPath({ path: w.value, tilde: w.tilde, cwd }, callCwd, home);
      if (path !== null || (w.tilde && home === null)) out.push({ raw: w.raw, path });
    }
  }
  return out;
}

/** compgen's options that take an argument (bash's `help compgen`). */
const COMPGEN_ARG = new Set(["-A", "-G", "-W", "-F", "-C", "-X", "-P", "-S", "-o"]);

/**
 * What `compgen` completes file names in: `-f`/`-d` (`-A file`, `-A directory`) complete the word's
 * directory (the working directory without a word), `-G` expands its pattern; each prints the names there.
 */
function completedNames(unit: ExecUnit): Listed[] {
  if (unit.program !== "compgen") return [];
  const args = unit.words.slice(1);
  let files = false;
  const out: Listed[] = [];
  let operand: Listed | null = null;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as (typeof args)[number];
    const flag = w.value ?? "";
    if (COMPGEN_ARG.has(flag)) {
      const arg = args[++i];
      if (flag === "-A" && (arg?.value === "file" || arg?.value === "directory")) files = true;
      if (flag === "-G" && arg?.value != null) out.push({ raw: arg.raw, value: arg.value, tilde: arg.tilde });
    } else if (/^-[a-z]+$/.test(flag)) files ||= /[fd]/.test(flag);
    else if (w.value !== null) operand = { raw: w.raw, value: w.value, tilde: w.tilde };
  }
  if (files) out.push(operand ?? { raw: unit.text, value: ".", tilde: false });
  return out;
}

/**
 * `cd src && ls ..`: after a cd, a leading `..` is the parent of wherever the kernel put the shell, which a
 * link decides. The place is kept as written below the cd's directory (`/ws/src/..`): judged here by its
 * lexical place, and the disk resolves it as the kernel does (listingFacts), so a link's parent in a secret
 * directory still asks. A `..` after a name (`a/../..`) stays unknown.
 */
function climbAfterCd(path: string, cwd: string | null, callCwd: string, home: string | null): string | null {
  if (cwd === null || cwd === "." || path.startsWith("/")) return null;
  const segments = path.split("/").filter((s) => s !== "." && s !== "");
  const climbs = segments.findIndex((s) => s !== "..");
  if (climbs === 0 || (climbs > 0 && segments.slice(climbs).includes(".."))) return null;
  const dir = resolveShellDir(cwd, callCwd, home);
  return dir === null ? null : `${dir}/${path}`;
}

/**
 * The directories a listing prints the names of, for the disk to follow: one that is a link into a secret
 * directory (`ls keys`, `cd keys; ls`) lists it as its own name would.
 */
export function listingTargets(unit: ExecUnit, callCwd: string, home: string | null): DiskTarget[] {
  const out: DiskTarget[] = [];
  for (const { path, lists, walks } of listedPaths(unit, callCwd, home)) {
    const dir = path === null ? "" : fixedDir(path);
    if (!dir.startsWith("/")) continue;
    // `ls -d ~/.s*h/*`, `ls ~/.ss*`: the directories the glob leads through (and a listed match) are the disk's to name.
    const listed = lists === true ? { lists } : {};
    const glob = path !== null && path !== dir && hasGlob(path) ? { pattern: path, ...listed } : {};
    // `find up/` with `up` a link to HOME or above: the disk says where the walk starts.
    const walked = walks === true && !hasGlob(dir) ? { walks } : {};
    out.push({ kind: "listing", dir, shown: unit.text, ...glob, ...walked });
  }
  return out;
}

/**
 * The LS tool (`ls`) on a directory in a secret directory, or Glob (`find`) searching one: its `path` with
 * the pattern's fixed leading directories (`secrets/*` from the workspace lists secrets).
 */
export function toolListingConcerns(call: ToolCall, path: string): Concern[] {
  if (path === "" || (call.tool !== "ls" && call.tool !== "find")) return [];
  const pattern = call.tool === "find" ? call.input.pattern : undefined;
  const listed = typeof pattern === "string" && !pattern.startsWith("/") ? `${path}/${pattern}` : path;
  return inSecretDir(listed) ? [concern(listed)] : [];
}
