// A recursive reader's walk, done at decision time the way the program would do it (dotfiles or not,
// ignore files or not, links followed or not), looking for what it must not reach: a secret, a file
// with another name (a hard link), a link leading out of the workspace. Bounded: a walk bigger than
// the bound is itself a reason to ask.
import { type Dirent, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { matchesGlob, relative } from "node:path";
import type { CallFact, WalkStyle } from "../../policy/call-facts.ts";
import { filterGlobMatches } from "../../policy/filter-globs.ts";
import { isGitMetadataPath, KEY_SCAN_MAX_BYTES } from "../../policy/secret-families.ts";
import {
  denylistedDir,
  denylistedInWalk,
  isDenylistedPath,
  secretFamilyOf,
} from "../../policy/secret-paths.ts";
import { segmentMatcher } from "./bash-glob.ts";
import { plainGitConfig } from "./git-config-credentials.ts";
import { gitDirEntries, gitDirFile } from "./git-dir-files.ts";
import { rawObjectStore } from "./git-raw-objects.ts";
import { homeStateFact } from "./home-state.ts";
import { type IgnoreRule, type IgnoreVerdict, ignoreRules, ignoreVerdict } from "./ignore-rules.ts";
import { whitelistsAbove } from "./ignore-whitelists.ts";
import { binaryFromStart, knownScan, PACKED_REASON, scanFile } from "./key-scan.ts";
import { errno, isWithin, nothingThere, perProcessEntry, undecodable } from "./real-path.ts";

/** Entries a decision walks before it asks instead. */
export const WALK_BOUND = 20_000;

/**
 * Bytes of files a recursive read may reach that no earlier decision has scanned for a private key: each
 * is read whole once (kept by its identity, key-scan.ts), and a walk with more than this left unread asks
 * (the next call goes on from what this one read).
 */
export const WALK_SCAN_BUDGET_BYTES = 32 * 1024 * 1024;

const VCS_DIRS = new Set([".git", ".hg", ".svn", ".bzr", ".jj", ".sl"]);
interface Frame {
  dir: string;
  ignores: Chains;
  /** How many directories below the root (0: the root's own entries). */
  level: number;
  /** The git repository directory (not named `.git`) this one is in or is (git-dir-files.ts). */
  gitDir?: string;
}

/** A path as the denylist judges it: workspace-relative inside the workspace, absolute outside. */
function judgedPath(abs: string, workspace: string): string {
  if (abs === workspace) return "";
  return abs.startsWith(`${workspace}/`) ? abs.slice(workspace.length + 1) : abs;
}

/** What a person reads for a path: workspace-relative inside it, absolute outside. */
export function shownPath(abs: string, workspace: string): string {
  return isWithin(workspace, abs) ? relative(workspace, abs) || "." : abs;
}

function secretFact(subject: string, abs: string, workspace: string, how: string): CallFact {
  const family = secretFamilyOf(isWithin(workspace, abs) ? relative(workspace, abs) : abs);
  return {
    subject,
    reason: `${how} reaches \`${shownPath(abs, workspace)}\`, a secret${family ? ` (${family.family}: ${family.why})` : ""}`,
  };
}

/** What the walk reaches but the judge cannot look at (a path past PATH_MAX): the program may open it. */
function cannotLook(subject: string, how: string, abs: string, workspace: string, error: unknown): CallFact {
  return {
    subject,
    reason: `${how} reaches \`${shownPath(abs, workspace)}\`, which Airlock cannot look at (${errno(error) ?? "an error"})`,
  };
}

/** One directory's rules of one kind, with the directory its patterns are relative to. */
interface Layer {
  base: string;
  rules: readonly IgnoreRule[];
}

/**
 * The ignore files in force, one chain per kind in ripgrep's order of precedence: `.rgignore`, then
 * `.ignore`, then `.gitignore` (only inside a git repository, and only up to the nearest `.git`: rg
 * does not apply a parent repository's .gitignore inside a nested one); in each, the deepest decides.
 * `above` holds whitelists from outside the walk, which are let win first (walking more is never unsafe).
 */
interface Chains {
  /** The walk is inside a git repository here: the root's, or one a `.git` on the way starts. */
  inRepo: boolean;
  above: readonly Layer[];
  rg: readonly Layer[];
  ig: readonly Layer[];
  gi: readonly Layer[];
}

function readRules(dir: string, name: string, present: readonly Dirent[]): IgnoreRule[] | null {
  // Only the ignore files the directory listing shows are read (a failed open costs an exception).
  if (!present.some((e) => e.name === name)) return null;
  try {
    const rules = ignoreRules(readFileSync(`${dir}/${name}`, "utf8"));
    return rules.length > 0 ? rules : null;
  } catch {
    return null;
  }
}

function withDir(chains: Chains, dir: string, present: readonly Dirent[]): Chains {
  const push = (chain: readonly Layer[], name: string) => {
    const rules = readRules(dir, name, present);
    return rules === null ? chain : [...chain, { base: dir, rules }];
  };
  // A `.git` here starts another repository: the .gitignore files above it no longer apply, and its own do,
  // even when the walk began outside any repository (a `!.env` there un-hides `.env` to rg).
  const startsRepo = present.some((e) => e.name === ".git");
  const gi = startsRepo ? [] : chains.gi;
  const inRepo = chains.inRepo || startsRepo;
  return {
    inRepo,
    above: chains.above,
    rg: push(chains.rg, ".rgignore"),
    ig: push(chains.ig, ".ignore"),
    gi: inRepo ? push(gi, ".gitignore") : gi,
  };
}

function chainVerdict(chain: readonly Layer[], abs: string, isDir: boolean): IgnoreVerdict {
  for (let i = chain.length - 1; i >= 0; i--) {
    const { base, rules } = chain[i] as Layer;
    const rel = relative(base, abs);
    if (rel === "" || rel.startsWith("..")) continue;
    const v = ignoreVerdict(rules, rel, isDir);
    if (v !== null) return v;
  }
  return null;
}

function verdict(chains: Chains, abs: string, isDir: boolean): IgnoreVerdict {
  if (chainVerdict(chains.above, abs, isDir) === "whitelist") return "whitelist";
  return (
    chainVerdict(chains.rg, abs, isDir) ??
    chainVerdict(chains.ig, abs, isDir) ??
    chainVerdict(chains.gi, abs, isDir)
  );
}

function ignored(chains: Chains, abs: string, isDir: boolean): boolean {
  return verdict(chains, abs, isDir) === "ignore";
}

/**
 * Whether an ignore file's `!pattern` whitelists a hidden entry, which overrides ripgrep's hidden-file
 * filter (and its skipping of `.git`). Whether it is a directory does not matter here: either form
 * whitelisted is walked.
 */
function whitelisted(chains: Chains, abs: string): boolean {
  return verdict(chains, abs, false) === "whitelist" || verdict(chains, abs, true) === "whitelist";
}

/** The `.git` above or at `dir` that makes it a git repository, or null. */
function gitDirAbove(dir: string): string | null {
  let d = dir;
  for (;;) {
    try {
      lstatSync(`${d}/.git`);
      return `${d}/.git`;
    } catch {
      const up = d.slice(0, d.lastIndexOf("/")) || "/";
      if (up === d) return null;
      d = up;
    }
  }
}

/**
 * A name an exclusion skips. node's matcher lets `*` match no leading dot (grep's fnmatch does), so it
 * skips no more than grep does: the walk still covers whatever grep reads.
 */
function excludedName(globs: readonly string[], name: string): boolean {
  return globs.some((g) => {
    try {
      return !g.includes("/") && matchesGlob(name, g);
    } catch {
      return false;
    }
  });
}

function onlyMatches(only: readonly string[], name: string, rel: string, anyDot: boolean): boolean {
  if (only.length === 0) return true;
  // find's -name: fnmatch without FNM_PERIOD (`*.js` matches `.env.js`); a pattern not modelled matches all.
  if (anyDot)
    return only.some((g) => {
      if (g.includes("/")) return true;
      const re = segmentMatcher(g, true);
      return re === null || re.test(name);
    });
  return only.some((g) => filterGlobMatches(g, name, rel));
}

/**
 * Walks `root` (real path) as `style` says and returns the first thing that makes the walk need a
 * person, or null when nothing it reaches is a secret, a hard link or a link out. `home`: HOME when the
 * workspace holds it (home-state.ts), whose own state a read reaching it needs a person for.
 */
export function walkFact(
  root: string,
  style: WalkStyle,
  workspace: string,
  subject: string,
  bound = WALK_BOUND,
  budget: { bytes: number } = { bytes: WALK_SCAN_BUDGET_BYTES },
  home: string | null = null,
): CallFact | null {
  const how =
    style.depth === 1
      ? "the read of the directory's files"
      : style.content
        ? "the recursive read"
        : "the walk";
  const gitDir = style.ignoreFiles ? gitDirAbove(root) : null;
  // A whitelist above the root (a parent's ignore file, git's excludes) may un-hide what is below it.
  const above = style.ignoreFiles ? whitelistsAbove(root, gitDir) : [];
  const chains: Chains = { inRepo: gitDir !== null, above, rg: [], ig: [], gi: [] };
  const stack: Frame[] = [{ dir: root, ignores: chains, level: 0 }];
  const seen = new Set<string>();
  let count = 0;
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    let entries: Dirent[];
    try {
      entries = readdirSync(frame.dir, { withFileTypes: true });
    } catch (error) {
      if (nothingThere(error)) continue;
      return cannotLook(subject, how, frame.dir, workspace, error);
    }
    let ignores = frame.ignores;
    if (style.ignoreFiles) ignores = withDir(ignores, frame.dir, entries);
    const dirRel = judgedPath(frame.dir, workspace);
    const dirSecret = style.content && denylistedDir(dirRel);
    const gitDir =
      frame.gitDir ??
      (style.content && !frame.dir.endsWith("/.git") && gitDirEntries(entries) ? frame.dir : undefined);
    for (const e of entries) {
      if (++count > bound)
        return {
          subject,
          reason: `${how} covers more than ${bound.toLocaleString("en")} entries, more than Airlock checks`,
        };
      const name = e.name;
      const abs = `${frame.dir}/${name}`;
      // Only dot-names are hidden (and every version-control directory is one): the others need no test.
      const hiddenWalked = name.startsWith(".") && style.ignoreFiles && whitelisted(ignores, abs);
      if (!style.hidden && name.startsWith(".") && !hiddenWalked) continue;
      // Looked up by its decoded name it is not there, while the program reads it by its bytes (round 14).
      if (undecodable(name))
        return {
          subject,
          reason: `${how} reaches \`${shownPath(abs, workspace)}\`, a name Airlock cannot read (not UTF-8)`,
        };
      if (style.plainNames === true && /[\s'"\\]/.test(name))
        return {
          subject,
          reason: `\`${shownPath(abs, workspace)}\` has a blank, a quote or a backslash in its name, which xargs (or bash, splitting a \`$(…)\`) splits into other words (paths or options)`,
        };
      if (style.globNames === true && /[*?[]/.test(name))
        return {
          subject,
          reason: `\`${shownPath(abs, workspace)}\` has a glob character in its name, which bash expands to other paths`,
        };
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      let target = abs;
      if (e.isSymbolicLink()) {
        if (!style.follow) continue;
        try {
          target = realpathSync.native(abs);
          const s = statSync(target);
          isDir = s.isDirectory();
          isFile = s.isFile();
        } catch (error) {
          if (nothingThere(error) || errno(error) === "ELOOP") continue;
          return cannotLook(subject, how, abs, workspace, error);
        }
        // Through /proc/self or /dev/fd the link leads where the program's own process does (round 13).
        const entry = perProcessEntry(abs);
        if (entry !== null)
          return {
            subject,
            reason: `${how} follows \`${shownPath(abs, workspace)}\`, a link through \`${entry}\`, which resolves per process: where it leads for the program is not known`,
          };
        if (!isWithin(workspace, target))
          return {
            subject,
            reason: `${how} follows \`${shownPath(abs, workspace)}\`, a link out of the workspace to \`${target}\``,
          };
      }
      if (isDir) {
        if (style.depth !== undefined && frame.level + 1 >= style.depth) continue;
        if (style.prune?.includes(name)) continue;
        if (style.skipVcs && VCS_DIRS.has(name) && !hiddenWalked) continue;
        if (style.excludeDirs !== undefined && excludedName(style.excludeDirs, name)) continue;
        if (style.ignoreFiles && ignored(ignores, abs, true)) continue;
        if (target !== abs) {
          if (seen.has(target)) continue;
          seen.add(target);
        }
        stack.push({
          dir: target,
          ignores,
          level: frame.level + 1,
          ...(gitDir !== undefined ? { gitDir } : {}),
        });
        continue;
      }
      if (!isFile || !style.content) continue;
      if (style.exclude !== undefined && excludedName(style.exclude, name)) continue;
      if (style.ignoreFiles && ignored(ignores, abs, false)) continue;
      if (
        style.only.length > 0 &&
        !onlyMatches(style.only, name, relative(root, abs), style.onlyAnyDot === true)
      )
        continue;
      // A file in HOME's own state, where the workspace holds HOME (`home`, home-state.ts; round 18).
      const state = homeStateFact(target, home, subject, `${how} reaches`);
      if (state !== null) return state;
      const secret =
        target === abs
          ? denylistedInWalk(dirRel, dirSecret, name)
          : isDenylistedPath(judgedPath(target, workspace)) || denylistedInWalk(dirRel, dirSecret, name);
      // A repository's configuration holding no credential is read as any file is (grep -r over a project).
      if (secret && !plainGitConfig(target, judgedPath(target, workspace)))
        return secretFact(subject, target, workspace, how);
      if (gitDir !== undefined && gitDirFile(gitDir, abs) === "secret")
        return {
          subject,
          reason: `${how} reaches \`${shownPath(abs, workspace)}\` of the git repository directory \`${shownPath(gitDir, workspace)}\`, which holds its remotes' credentials as .git/config does`,
        };
      const store = rawObjectStore(target);
      // A pack or its index starts with a NUL: a search that shows a binary file as nothing prints none of it.
      if (store !== null && style.binarySilent === true && binaryFromStart(target)) continue;
      if (store !== null)
        return {
          subject,
          reason: `${how} reaches \`${shownPath(abs, workspace)}\`, a raw object file of the git repository \`${shownPath(store, workspace)}\`: its history compressed, which the history check and the content scan do not see through`,
        };
      let st: ReturnType<typeof lstatSync>;
      try {
        st = lstatSync(target);
      } catch (error) {
        if (nothingThere(error)) continue;
        return cannotLook(subject, how, abs, workspace, error);
      }
      const nlink = st.nlink;
      if (nlink > 1)
        return {
          subject,
          reason: `${how} reaches \`${shownPath(abs, workspace)}\`, which has another name (a hard link) that may be a secret`,
        };
      // Every file the read reaches is one whose contents it may print: a private key anywhere in any of
      // them (a PEM block in config.js, a key past the first 64 KiB of a log) makes it ask.
      if (st.size === 0) continue;
      // A reflog or .git/remotes file reached by the walk: a URL with a password counts (isGitMetadataPath).
      const urls = isGitMetadataPath(target) || isGitMetadataPath(abs) || gitDir !== undefined;
      let scan = knownScan(st, urls, target);
      if (scan === undefined) {
        if (st.size > KEY_SCAN_MAX_BYTES) scan = "too-large";
        else if (budget.bytes < st.size)
          return {
            subject,
            reason: `${how} reaches more than ${WALK_SCAN_BUDGET_BYTES / 1024 / 1024} MiB of files not yet checked for a private key (\`${shownPath(abs, workspace)}\` and beyond)`,
          };
        else {
          budget.bytes -= st.size;
          scan = scanFile(target, st.size, KEY_SCAN_MAX_BYTES, urls);
        }
      }
      if (scan === "key")
        return {
          subject,
          reason: `${how} reaches \`${shownPath(abs, workspace)}\`, which holds a private key or a credential`,
        };
      if (scan === "too-large")
        return {
          subject,
          reason: `${how} reaches \`${shownPath(abs, workspace)}\`, ${st.size} bytes, too large to check for a private key`,
        };
      // A search that shows a binary file as nothing shows a compressed one as nothing: its raw bytes
      // are not printed, and it does not unpack them (rg -z, grep -a ask).
      if (scan === "packed" && style.binarySilent === true && binaryFromStart(target)) continue;
      if (scan === "packed")
        return { subject, reason: `${how} reaches \`${shownPath(abs, workspace)}\`, which ${PACKED_REASON}` };
    }
  }
  return null;
}
