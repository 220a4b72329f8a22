// Where git starts its repository discovery for one git unit: the directory the shell is in, moved by
// `-C`, or the repository `--git-dir`/`GIT_DIR` name outright. The companion then walks up from there as
// git does (guards/git-discovery.ts): any repository other than the workspace's own is not understood.

import type { DiskTarget, GitMessages, GitPrints } from "./call-facts.ts";
import { runsCleanFilters } from "./git-filters.ts";
import { gitMessages, refFilterAtoms } from "./git-messages.ts";
import { type CheckedPatches, checkedPatches } from "./git-patches.ts";
import { climbsAfterName, normalizePath, resolveShellDir } from "./paths.ts";
import { isRevision } from "./shell/git.ts";
import { DOT } from "./shell/grammar/effects.ts";
import { configForm } from "./shell/grammar/programs/git-config-forms.ts";
import { simpleKeyPattern } from "./shell/grammar/programs/git-config-keys.ts";
import type { ExecUnit } from "./shell/units.ts";

const MAX_DIRS = 8;

// git's own options before the subcommand that take a value as the next word.
const VALUED = new Set(["-c", "--namespace", "--config-env", "--super-prefix", "--exec-path", "--list-cmds"]);

// Subcommands that never run git inside a submodule unless a word asks for it (`--submodule=diff`,
// `--recurse-submodules`); every other one may (status, diff, grep, checkout, …), with the
// submodule's own configuration (core.fsmonitor).
const STAYS_OUT_OF_SUBMODULES = new Set([
  "log",
  "show",
  "blame",
  "rev-parse",
  "rev-list",
  "branch",
  "tag",
  "remote",
  "describe",
  "shortlog",
  "reflog",
  "cat-file",
  "ls-tree",
  "ls-files",
  "config",
  "version",
  "help",
  "show-ref",
  "symbolic-ref",
  "for-each-ref",
  "name-rev",
  "merge-base",
  "count-objects",
  "var",
]);

/**
 * Whether it prints the notes of the commits it shows: `git log`, `show` and `whatchanged` do by default
 * (refs/notes/commits, notes.displayRef), as does any walk given `--notes`/`--show-notes` (red team,
 * round 7: a note held a private key that plain `git log` printed).
 */
function printsNotes(unit: ExecUnit, subcommand: string | null): boolean {
  const words = unit.words.map((w) => w.value);
  if (words.some((v) => v === null || /^--(show-)?notes\b/.test(v))) return true;
  return ["log", "show", "whatchanged"].includes(subcommand ?? "") && !words.includes("--no-notes");
}

/** Subcommands that show of a submodule only its commit and whether it is dirty, unless configured to show more. */
const SUMMARISE_SUBMODULES = new Set(["status", "diff", "diff-files", "diff-index"]);

/** Whether the unit shows of each submodule only that summary (the git target's `plainSubmodules`). */
function plainSubmodules(unit: ExecUnit, subcommand: string | null): boolean {
  return (
    SUMMARISE_SUBMODULES.has(subcommand ?? "") &&
    !unit.words.some((w) => w.value === null || /submodule/i.test(w.value)) &&
    !unit.prefixes.some((p) => p.name.startsWith("GIT_"))
  );
}

function entersSubmodules(unit: ExecUnit, subcommand: string | null): boolean {
  if (subcommand === null || !STAYS_OUT_OF_SUBMODULES.has(subcommand)) return true;
  // A diff they print runs `git diff` inside each submodule when diff.submodule=diff is configured
  // anywhere (the user's ~/.gitconfig too), with the submodule's own configuration (red team, round 7).
  if (subcommand === "show") return true;
  if (subcommand === "log" && unit.words.some((w) => w.value === null || PATCH.test(w.value))) return true;
  return unit.words.some((w) => w.value === null || /submodule/i.test(w.value));
}

/**
 * Options that make `git log` print what the files held (patches), not only commits and names: a patch
 * format and every option git documents as implying one (`-c`, `--cc`, `--dd`, `--remerge-diff`, red
 * team round 5; `-W`, `--binary`, `--inter-hunk-context`, a word diff). Not `-m`: git 2.39 shows a merge's
 * diff with it "only if -p is given as well" (checked: `git log -m` of a merge bringing a key prints no line).
 */
const PATCH =
  /^(-[A-Za-z0-9]*[pucULW][A-Za-z0-9]*|--(patch|unified|word-diff|color-words|cc|dd|remerge-diff|binary|full-index|patch-with-\w+|diff-merges|function-context|inter-hunk-context|word-diff-regex)\b.*)$/;

/**
 * Subcommands whose output holds what files hold (a refresh by `git status` reads contents but prints
 * names). Any other read-only subcommand the grammar knows prints names, refs or commits.
 */
const CONTENT_PRINTERS = new Set([
  "blame",
  "annotate",
  "log",
  "whatchanged",
  "reflog",
  "show",
  "diff",
  "diff-tree",
  "diff-index",
  "diff-files",
  "grep",
]);

/**
 * Options that make a walk of commits search or print what the files held without a patch: a pickaxe
 * (`-S`, `-G`) lists a commit iff its diff matches, an oracle over every blob that recovers a secret a
 * character at a time (red team, round 5); `--check` prints the lines it flags.
 */
const CONTENT_SEARCH = /^(-[SG]|--pickaxe-(regex|all)$|--check$)/;

/** Subcommands that walk commits and take the log's options (a pickaxe among them). */
const COMMIT_WALKS = new Set(["log", "whatchanged", "rev-list", "shortlog", "reflog"]);

/** Output formats of the diff machinery that print names and counts, never lines. */
const NAMES_ONLY =
  /^(--stat(=\d+(,\d+){0,2})?|--numstat|--shortstat|--name-only|--name-status|--summary|--compact-summary|--dirstat(=[a-z0-9,.]*)?|-s|--no-patch|--raw)$/;

/** Options that change only how commits and names are shown (an allowlist: any other may print lines). */
const PRESENTATION =
  /^(--oneline|--(format|pretty)(=.*)?|--(no-)?abbrev-commit|--abbrev(=\d+)?|--no-color|--color(=(always|never|auto))?|--decorate(=(short|full|auto|no))?|--no-decorate|--date=[a-z-]+|--no-renames|--no-notes|--stat-(width|name-width|count|graph-width)=\d+|-z|--quiet|--exit-code)$/;

/** What a diff compares (the index, a merge base, the reverse): no effect on what it prints. */
const DIFF_SIDES = /^(--cached|--staged|--merge-base|-R)$/;

/** Subcommands that print a diff and nothing else (no blob as such, no message). */
const DIFFS = new Set(["diff", "diff-index", "diff-files", "diff-tree"]);

/**
 * The operands before `--` of a unit that prints names only (a names-only format, every other option
 * a presentation one), or undefined when it may print lines.
 */
function namesOnly(subcommand: string | null, rest: readonly (string | null)[]): string[] | undefined {
  if (rest.some((v) => v === null)) return undefined;
  const words = rest as string[];
  const dashes = words.indexOf("--");
  const before = dashes < 0 ? words : words.slice(0, dashes);
  const options = before.filter((v) => v.startsWith("-"));
  const shown = (v: string) => PRESENTATION.test(v) || (DIFFS.has(subcommand ?? "") && DIFF_SIDES.test(v));
  if (!options.some((v) => NAMES_ONLY.test(v))) return undefined;
  if (!options.every((v) => NAMES_ONLY.test(v) || shown(v))) return undefined;
  return before.filter((v) => !v.startsWith("-"));
}

/**
 * The revisions a `git show` names when it prints names only: then only a revision that is not a commit
 * (a blob, a tag of one) prints contents. Undefined otherwise.
 */
function onlyCommits(subcommand: string | null, rest: readonly (string | null)[]): string[] | undefined {
  if (subcommand !== "show") return undefined;
  const revisions = namesOnly(subcommand, rest);
  if (revisions === undefined) return undefined;
  return revisions.length === 0 ? ["HEAD"] : revisions;
}

/** A raw object id, perhaps abbreviated, with a peel or ancestry suffix (`abc123^{}`, `abc123~2`). */
const OBJECT_ID = /^([0-9a-f]{4,64})(?:[~^].*)?$/i;

/**
 * A history printer's operands that are raw object ids (before `--`): the companion asks git what each
 * names, and a blob or tree the history does not name asks (guards/git-unnamed.ts; red team, round 10).
 */
function withObjectIds(
  prints: GitPrints | null,
  unit: ExecUnit,
  subcommand: string | null,
): GitPrints | null {
  if (prints === null || !prints.history) return prints;
  const words = unit.words.map((w) => w.value);
  const rest = words.slice(words.indexOf(subcommand) + 1);
  const dashes = rest.indexOf("--");
  const ids: string[] = [];
  for (const v of dashes < 0 ? rest : rest.slice(0, dashes)) {
    const m = v === null ? null : OBJECT_ID.exec(v);
    if (m !== null) ids.push(m[1] as string);
  }
  return ids.length === 0 ? prints : { ...prints, objectIds: ids };
}

/** Subcommands whose `--format` atoms can print a branch's remote (a configuration value). */
const REF_FORMATS = new Set(["for-each-ref", "branch", "tag"]);

/**
 * ref-filter's `%(raw)` (git 2.36) prints the object a ref leads to as the database holds it, a blob or a
 * tree too, and `%(*raw)` the one a tag leads to; sorted by it, the order tells how the contents compare.
 * A ref may name any object (git.git's junio-gpg-pub tag is a blob): red team, round 16, a tag of a
 * removed `.env`'s blob printed its token, so such a listing prints the history as `cat-file` does.
 * Every other atom prints a commit's or a tag's fields (git-messages.ts), or a size, never a blob.
 */
function printsRawObjects(rest: readonly (string | null)[]): boolean {
  if (rest.some((v) => v === null)) return true;
  return refFilterAtoms(rest as string[]).some((a) => /^-?\*?raw(:(?!size$).*)?$/.test(a));
}

/** Subcommands that print contents only of the work tree and index unless given a revision. */
const WORK_TREE_ONLY = new Set(["diff", "diff-files", "grep"]);

/** Options `git config` may take beside one key it prints: which files it reads (all are judged anyway). */
const CONFIG_SCOPES = new Set(["--local", "--global", "--system", "--worktree", "--get", "--get-all"]);

/**
 * The one key `git config [--get|--get-all] KEY` prints the values of (a plain name: no regex form, no
 * file of its own, no value given); null for any other form, which is judged as printing every value.
 */
function oneConfigKey(rest: readonly (string | null)[]): string | null {
  const keys = rest.filter((w) => w === null || !CONFIG_SCOPES.has(w));
  const key = keys[0];
  if (keys.length !== 1 || key === null || key === undefined) return null;
  if (rest.filter((w) => w === "--get" || w === "--get-all").length > 1) return null;
  return /^[A-Za-z0-9-]+(\.[^\s]+)?\.[A-Za-z][A-Za-z0-9-]*$/.test(key) ? key : null;
}

/** The PATTERN of `git config [SCOPE] --get-regexp PATTERN [VALUE-PATTERN]` when it is one git-config-keys.ts reads. */
function regexpPattern(rest: readonly (string | null)[]): string | null {
  const at = rest.indexOf("--get-regexp");
  const pattern = rest[at + 1];
  if (at < 0 || pattern === null || pattern === undefined) return null;
  if (
    rest.some((w, k) => k !== at + 1 && k !== at + 2 && w !== "--get-regexp" && !CONFIG_SCOPES.has(w ?? ""))
  )
    return null;
  return simpleKeyPattern(pattern) === null ? null : pattern;
}

/**
 * What the unit can print the contents of, from its grammar's effects: a content walk of git's tree
 * is a pathspec (the placeholder `.` when none: all paths); `cat-file` and blob ids name no path.
 */
export function gitPrints(unit: ExecUnit, subcommand: string | null): GitPrints | null {
  const words = unit.words.map((w) => w.value);
  const at = subcommand === null ? -1 : words.indexOf(subcommand);
  const rest = at < 0 ? [] : words.slice(at + 1);
  // A bare `git remote` prints the remotes' names only; -v, get-url and ls-remote print their URLs.
  if (subcommand === "remote" && rest.length === 0) return null;
  // `git config --get KEY` prints one value of the configuration, and any key may hold a URL: git takes a
  // URL for a remote's name in branch.*.remote, branch.*.pushRemote, remote.pushDefault (red team, round
  // 10), so the values are judged (every file git reads its configuration from), not the key's name; and
  // ref listings print such a value with `%(push:remotename)`, `%(upstream:remotename)`.
  if (subcommand === "config") {
    // `git config get KEY` (git 2.46) is the old `git config --get KEY`: the same key's values.
    const form = at < 0 ? null : configForm(unit.words.slice(at + 1));
    const words = form === null ? rest : form.words.map((w) => w.value);
    const key = oneConfigKey(words);
    const pattern = key === null ? regexpPattern(words) : null;
    return {
      pathspecs: [],
      history: false,
      remotes: true,
      ...(key === null ? {} : { configKey: key }),
      ...(pattern === null ? {} : { configPattern: pattern }),
    };
  }
  const rawObjects = REF_FORMATS.has(subcommand ?? "") && printsRawObjects(rest);
  if (
    subcommand === "remote" ||
    subcommand === "ls-remote" ||
    (REF_FORMATS.has(subcommand ?? "") && rest.some((v) => v === null || /remote/i.test(v)))
  )
    return { pathspecs: rawObjects ? null : [], history: rawObjects, remotes: true };
  if (rawObjects) return { pathspecs: null, history: true, remotes: false };
  const searches =
    COMMIT_WALKS.has(subcommand ?? "") && rest.some((v) => v === null || CONTENT_SEARCH.test(v));
  const walks = (unit.effects?.paths ?? []).filter(
    (e) => e.pathspec === true && e.access === "walk" && (e.contents || searches),
  );
  // `git stash list` takes log's options: with a patch one it prints every stash's diff (red team, round 7).
  const stashPatches =
    subcommand === "stash" && rest[0] === "list" && rest.some((v) => v === null || PATCH.test(v));
  if (subcommand === "cat-file" || (subcommand === "stash" && rest[0] === "show") || stashPatches)
    return { pathspecs: null, history: true, remotes: false };
  if (!CONTENT_PRINTERS.has(subcommand ?? "") && !searches) return null;
  // A diff with a names-only format prints names and counts, whatever it compares (blobs included).
  if (DIFFS.has(subcommand ?? "") && !searches && namesOnly(subcommand, rest) !== undefined) return null;
  // `git log -L1,5:FILE` and `git blame FILE` name their file outside the pathspecs: any path (red team,
  // round 4: a deleted secret's history printed line by line).
  const lineRanges = rest.some((v) => v === null || /^-L|^--line-range/.test(v));
  // `log -L` follows its lines through renames and prints their old versions, from whatever file they came
  // from (red team, round 7); blame's `-L` only picks which of the file's present lines it prints.
  const blame = subcommand === "blame" || subcommand === "annotate";
  if (lineRanges && !blame) return { pathspecs: null, history: true, remotes: false };
  if (blame) {
    // The file they print is the one they read (its history: revisions, renames followed).
    const files = (unit.effects?.paths ?? []).filter((e) => e.access === "read").map((e) => e.arg.value);
    const known = files.length > 0 && files.every((v) => v !== null && !/[*?[\]:\\]/.test(v));
    const blamed = known && subcommand !== null ? blamedFile(subcommand, rest, files as string[]) : undefined;
    return {
      pathspecs: known ? (files as string[]) : null,
      history: true,
      remotes: false,
      ...(blamed !== undefined ? { blamedFile: blamed } : {}),
    };
  }
  if (walks.length === 0) return null;
  if (
    (subcommand === "log" || subcommand === "whatchanged") &&
    !searches &&
    !rest.some((v) => v === null || PATCH.test(v))
  )
    return null;
  // `git reflog` prints ids and subjects; a format or `--notes` can print notes, which are blobs of the
  // history (`--format=%N`, `--pretty=medium --notes`): only its plain forms skip the history's check.
  if (
    subcommand === "reflog" &&
    rest.every((v, k) => v !== null && (REFLOG_PLAIN.test(v) || countOf(rest, k)))
  )
    return null;
  // The grammar's placeholder for no pathspec (DOT itself) is every path, but for `git grep`, which searches
  // only below where it runs; a `.` written is where git runs, which below the top narrows (round 13: a
  // workspace below a dotfiles repository's top keeps `git log -p -- .` to itself).
  const values = walks.map((w) => (w.arg === DOT && subcommand !== "grep" ? "" : w.arg.value));
  const pathspecs = values.some((v) => v === null || v === "") ? null : (values as string[]);
  const dashes = rest.indexOf("--");
  const before = dashes < 0 ? rest : rest.slice(0, dashes);
  // Before `--`, any operand of diff may be a revision (a branch name is), and so may any of grep's
  // after its pattern: then the contents come from a commit.
  const operands = before.filter((v) => v === null || !v.startsWith("-"));
  const pattern =
    subcommand === "grep" && !before.some((v) => v !== null && /^-(e|f)$|^--(regexp|file)\b/.test(v));
  // `--cached`/`--staged`/`--merge-base` compare with a commit (HEAD when none is named): its side of
  // each changed file is printed too (a key removed from the index but still in HEAD).
  const againstCommit =
    DIFFS.has(subcommand ?? "") && before.some((v) => v !== null && /^--(cached|staged|merge-base)$/.test(v));
  const revision =
    againstCommit || operands.length > (pattern ? 1 : 0) || operands.some((v) => v === null || isRevision(v));
  const history = !WORK_TREE_ONLY.has(subcommand ?? "") || revision;
  // Without `--`, git takes an operand for a revision when one by that name exists (`git show main`):
  // only pathspecs after `--` are known to narrow what it prints.
  const ambiguous = dashes < 0 && operands.length > (pattern ? 1 : 0);
  const workTree = WORK_TREE_ONLY.has(subcommand ?? "");
  const commits = onlyCommits(subcommand, rest);
  // `:/text` is a commit found by its message; a path after `/`, `!`, `^` or `(` is not placed on the disk.
  const namedBlobs =
    subcommand === "show" &&
    operands.length > 0 &&
    operands.every((v) => v !== null && !v.startsWith(":/") && /^[^:]*:(?:[0-3]:)?(?![/!^(])/.test(v));
  const changedOnly = (subcommand === "diff" || subcommand === "diff-files") && !history;
  // `git diff --cached` alone: HEAD's and the index's sides of the staged files, nothing else of the history.
  const stagedOnly =
    subcommand === "diff" &&
    operands.length === 0 &&
    before.some((v) => v === "--cached" || v === "--staged") &&
    !before.some((v) => v === null || v === "--merge-base");
  // `--follow` follows the file back through renames (to `.env`), `--full-diff` prints every file of a
  // commit the pathspec selects, and so does `--pickaxe-all` for a pickaxe's commits: none narrows what is
  // printed to the pathspec (red team, round 7).
  const widened = rest.some((v) => v === null || /^--(follow|full-diff|pickaxe-all)$/.test(v));
  return {
    pathspecs: ambiguous || widened ? null : pathspecs,
    history,
    remotes: false,
    workTree,
    ...(commits !== undefined ? { onlyCommits: commits } : {}),
    ...(changedOnly ? { changedOnly: true as const } : {}),
    ...(namedBlobs ? { namedBlobs: true as const } : {}),
    ...(stagedOnly ? { stagedOnly: true as const } : {}),
  };
}

/** What `git reflog` may be given and still print only ids, selectors and subjects (its oneline format). */
const REFLOG_PLAIN =
  /^(show|-n\d*|-\d+|--max-count=\d+|--oneline|--(no-)?abbrev-commit|--abbrev=\d+|--date=[a-z-]+|--no-color|--no-decorate|--decorate(=(short|full|no))?|--all|--no-notes|--|[A-Za-z][\w./@{}~^-]*)$/;

/** The word at `k` is the count of a `-n` before it. */
function countOf(rest: readonly (string | null)[], k: number): boolean {
  return rest[k - 1] === "-n" && /^\d+$/.test(rest[k] ?? "");
}

/** Options of blame that change only how lines are attributed or shown, never which file's lines. */
const BLAME_PRESENTATION =
  /^(-[bltsewcfnp]+|--(root|show-stats|porcelain|line-porcelain|incremental|first-parent|progress|no-progress|show-email|show-name|show-number|color-lines|color-by-age|minimal)|-[MC]\d*|--abbrev(=\d+)?|--date=[a-z-]+)$/;

/**
 * The one file a `git blame FILE` prints as the work tree has it: no revision (nor `--reverse`, `-S`,
 * `--contents`), only presentation options and `-L` ranges. Undefined otherwise (then its history counts).
 */
function blamedFile(
  subcommand: string,
  rest: readonly (string | null)[],
  files: readonly string[],
): string | undefined {
  if ((subcommand !== "blame" && subcommand !== "annotate") || files.length !== 1) return undefined;
  const file = files[0] as string;
  let operands = 0;
  for (let k = 0; k < rest.length; k++) {
    const v = rest[k];
    if (v === null || v === undefined) return undefined;
    if (v === "--") continue;
    if (v === "-L") {
      k++;
      continue;
    }
    if (/^-L./.test(v) && !v.includes(":")) continue;
    if (v.startsWith("-")) {
      if (!BLAME_PRESENTATION.test(v)) return undefined;
      continue;
    }
    if (v !== file) return undefined;
    operands++;
  }
  return operands === 1 ? file : undefined;
}

/**
 * `git blame FILE` with no revision (its printed file known: `blamedFile`) names commits of HEAD's walk
 * only, the ones that last changed its lines: their messages are all it can print.
 */
function fromHead(messages: GitMessages | null, prints: GitPrints | null): GitMessages | null {
  if (messages === null || prints?.blamedFile === undefined) return messages;
  if (!messages.commits || messages.tags || messages.reflogs || messages.head !== undefined) return messages;
  return { ...messages, head: "all" };
}

interface GitPlacement {
  subcommand: string | null;
  moves: (string | null)[];
  gitDir: string | null | undefined;
  workTree: string | null | undefined;
}

function placement(unit: ExecUnit): GitPlacement {
  const out: GitPlacement = { subcommand: null, moves: [], gitDir: undefined, workTree: undefined };
  const words = unit.words;
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    const v = w?.value ?? null;
    if (v === null || !v.startsWith("-")) {
      out.subcommand = v;
      break;
    }
    // A glob is a directory bash expands (`git -C [v]alidrepo`): not known here (red team, round 14).
    const next = () => {
      const n = words[++i];
      return n === undefined || n.tilde || n.glob ? null : n.value;
    };
    if (v === "-C") out.moves.push(next());
    else if (v === "--git-dir") out.gitDir = next();
    else if (v.startsWith("--git-dir=")) out.gitDir = v.slice(10);
    else if (v === "--work-tree") out.workTree = next();
    else if (v.startsWith("--work-tree=")) out.workTree = v.slice(12);
    else if (VALUED.has(v)) i++;
  }
  for (const p of unit.prefixes) {
    if (p.name === "GIT_DIR") out.gitDir = p.value;
    if (p.name === "GIT_WORK_TREE") out.workTree = p.value;
  }
  return out;
}

/** The word a `cd`/`pushd` moves to: null when unknown (`-`, a variable, `~`), "~" for a bare `cd` or `cd --`. */
function cdTarget(cd: ExecUnit): string | null {
  const words = cd.words.slice(1).filter((w) => !(w.value !== null && /^-[LPe@]+$/.test(w.value)));
  if (words[0]?.value === "--") words.shift();
  const w = words[0];
  if (w === undefined) return "~";
  if (w.value === null || w.value === "-" || w.tilde || w.glob) return null;
  return w.value;
}

/**
 * The directories the shell may be in when the unit runs, when the analysis could not say which: the
 * call's own and every place the command's earlier `cd`s lead (a `cd` may fail), chained.
 */
function possibleDirs(cds: readonly ExecUnit[], callCwd: string, home: string | null): string[] | null {
  let dirs = [normalizePath(callCwd)];
  for (const cd of cds) {
    const t = cdTarget(cd);
    if (t === null) return null;
    const next = new Set(dirs);
    for (const d of dirs) {
      const to = t === "~" ? home : t.startsWith("/") ? normalizePath(t) : normalizePath(`${d}/${t}`);
      if (to === null) return null;
      next.add(to);
    }
    if (next.size > MAX_DIRS) return null;
    dirs = [...next];
  }
  return dirs;
}

/**
 * The paths of the unit's `REV:PATH`, `:PATH`, `:N:PATH` operands that git takes from the top of the work
 * tree (red team, round 12: in a workspace below the repository's top, `git show HEAD:other/notes.txt`
 * prints the repository's other/notes.txt, outside the workspace). `REV:./PATH` and `REV:../PATH` are from
 * where git runs, as the text places them; `:/TEXT` names a commit by its message, not a path.
 */
function topPaths(unit: ExecUnit, subcommand: string | null): string[] {
  if (subcommand === null) return [];
  const words = unit.words.map((w) => w.value);
  const out: string[] = [];
  for (const v of words.slice(words.indexOf(subcommand) + 1)) {
    if (v === "--") break;
    if (v === null || v.startsWith("-")) continue;
    const m = /^[^:]*:(?:[0-3]:)?(.+)$/.exec(v);
    const path = m?.[1];
    if (path === undefined || /^[/!^(]/.test(path) || /^\.\.?(\/|$)/.test(path)) continue;
    out.push(path);
  }
  return out;
}

/** `git verify-pack`'s pack words (its grammar takes only `.git/objects/pack/pack-ID.idx` or `.pack`). */
function packWords(unit: ExecUnit, subcommand: string | null): string[] | null {
  if (subcommand !== "verify-pack") return null;
  const words = unit.words.map((w) => w.value ?? "");
  return words.slice(words.indexOf(subcommand) + 1).filter((v) => !v.startsWith("-"));
}

/** The patch files' absolute paths: operands from where git runs (after `-C`), standard input from the shell's. */
function patchFiles(
  p: CheckedPatches,
  abs: (path: string) => string | null,
  base: string,
): { files: string[]; strip: number } {
  const files = p.files.map((f) => abs(f) as string);
  if (p.stdin !== undefined)
    files.push(normalizePath(p.stdin.startsWith("/") ? p.stdin : `${base}/${p.stdin}`));
  return { files, strip: p.strip };
}

export function gitTargets(
  unit: ExecUnit,
  cds: readonly ExecUnit[],
  callCwd: string,
  home: string | null,
): DiskTarget[] {
  const shown = unit.text;
  const unknown = (reason: string): DiskTarget[] => [{ kind: "unknown", shown, reason }];
  const known = unit.cwd === null ? null : resolveShellDir(unit.cwd, callCwd, home);
  // Under a wrapper the unknown directory may be the wrapper's own move (`env -C validr* git`), which
  // the `cd`s do not show (round 14).
  const bases = known !== null ? [known] : unit.via === undefined ? possibleDirs(cds, callCwd, home) : null;
  if (bases === null)
    return unknown("git runs in a directory not known before it runs, so its repository is not known");
  const where = placement(unit);
  if (where.moves.includes(null) || where.gitDir === null || where.workTree === null)
    return unknown("git is pointed at a directory not known before it runs (`-C`, `--git-dir`, `GIT_DIR`)");
  // `git -C link/..` chdir()s through the link's target, not where the text climbs back to (round 12).
  if (where.moves.some((m) => m !== null && climbsAfterName(m)))
    return unknown("git -C climbs with `..` after a directory name, which chdir() resolves through links");
  const out: DiskTarget[] = [];
  const prints = withObjectIds(gitPrints(unit, where.subcommand), unit, where.subcommand);
  const messages = fromHead(gitMessages(unit, where.subcommand), prints);
  const fromTop = topPaths(unit, where.subcommand);
  const patches = checkedPatches(unit, where.subcommand);
  if (typeof patches === "string") return unknown(patches);
  const packs = packWords(unit, where.subcommand);
  for (const base of bases) {
    let dir = base;
    for (const m of where.moves as string[])
      dir = m.startsWith("/") ? normalizePath(m) : normalizePath(`${dir}/${m}`);
    const abs = (p: string | undefined) =>
      p === undefined ? null : p.startsWith("/") ? normalizePath(p) : normalizePath(`${dir}/${p}`);
    out.push({
      kind: "git",
      dir,
      gitDir: abs(where.gitDir),
      workTree: abs(where.workTree),
      entersSubmodules: entersSubmodules(unit, where.subcommand),
      ...(plainSubmodules(unit, where.subcommand) ? { plainSubmodules: true as const } : {}),
      prints,
      ...(printsNotes(unit, where.subcommand) ? { printsNotes: true as const } : {}),
      ...(runsCleanFilters(where.subcommand) ? { runsFilters: true as const } : {}),
      ...(where.subcommand === "help" ? { opensHelp: true as const } : {}),
      ...(messages !== null ? { printsMessages: messages } : {}),
      ...(fromTop.length > 0 ? { topPaths: fromTop } : {}),
      ...(patches !== null ? { patches: patchFiles(patches, abs, base) } : {}),
      ...(packs !== null ? { packs: packs.map((p) => abs(p) as string) } : {}),
      shown,
    });
  }
  return out;
}
