// What a git unit prints of commit and tag objects (messages; author, committer and tagger names and
// emails) and of the reflogs (their messages, which git writes from the command line: `pull
// https://user:TOKEN@host`), decided by what its format prints: `git log --format=%h` prints ids only,
// `git log -g --oneline` the reflog's messages, `git show -s` a commit's. A search of messages (`--grep`,
// `--author`, `:/text`, `HEAD^{/text}`) lists a commit iff its message matches, an oracle that recovers
// a token a character at a time: it counts as printing them. The companion then scans what may be
// printed for a credential (guards/git-messages.ts); anything this file cannot place counts as printed.
import type { GitMessages } from "./call-facts.ts";
import type { ExecUnit } from "./shell/units.ts";

const NONE: GitMessages = { commits: false, tags: false, reflogs: false };
const ALL: GitMessages = { commits: true, tags: true, reflogs: true };
/** A commit's message and identities: what the log's formats print (never a tag object's). */
const COMMITS: GitMessages = { commits: true, tags: false, reflogs: false };
/** A commit's or a tag's: what prints an object a ref or a name leads to (`git show v1`, `cat-file -p`). */
const OBJECTS: GitMessages = { commits: true, tags: true, reflogs: false };
const REFLOGS: GitMessages = { commits: false, tags: false, reflogs: true };

/** Subcommands that take the revision walk's options (git-options.ts LOG_OPTIONS). */
const WALKS = new Set(["log", "whatchanged", "show", "rev-list", "diff-tree", "shortlog", "reflog", "stash"]);

/** The subcommands listing refs through ref-filter (`--format=%(atom)`, `--sort=atom`). */
const REF_LISTINGS = new Set(["for-each-ref", "branch", "tag"]);

function union(a: GitMessages, b: GitMessages): GitMessages {
  return { commits: a.commits || b.commits, tags: a.tags || b.tags, reflogs: a.reflogs || b.reflogs };
}

/** `--name[=value]` or a unique prefix of `--name` (git's parse-options takes one): its value, or undefined. */
function longOption(word: string, name: string): { value: string | null } | undefined {
  const eq = word.indexOf("=");
  const given = eq < 0 ? word : word.slice(0, eq);
  if (given.length < 4 || !`--${name}`.startsWith(given)) return undefined;
  return { value: eq < 0 ? null : word.slice(eq + 1) };
}

/**
 * What one `%` placeholder of a pretty format prints (pretty-formats(5), git 2.39), from `at` (just past
 * the `%`): the length it takes and whether it is a commit's message or identity or a reflog's.
 */
function placeholder(f: string, at: number): { length: number; prints: GitMessages } {
  let k = at;
  if (/[+\- ]/.test(f[k] ?? "")) k++; // %+s, %-s, % s: a line feed or space around it
  const c = f[k] ?? "";
  const rest = f.slice(k);
  const safe = (n: number) => ({ length: k - at + n, prints: NONE });
  const commit = (n: number) => ({ length: k - at + n, prints: COMMITS });
  if (c === "%" || c === "n" || c === "m" || "HhTtPpdDN".includes(c)) return c === "" ? safe(0) : safe(1);
  if (/^x[0-9a-fA-F]{2}/.test(rest)) return safe(3);
  if (/^C(red|green|blue|reset)/.test(rest))
    return safe((/^C(red|green|blue|reset)/.exec(rest)?.[0] ?? "").length);
  // Colours, padding, wrapping: `%C(…)`, `%<(…)`, `%>|(…)`, `%w(…)`; `%(decorate…)`, `%(describe…)` print refs.
  const paren = /^(C|<\||>\||><|<|>|w)?\(([^)]*)\)/.exec(rest);
  if (paren !== null) {
    const atom = paren[2] ?? "";
    if (paren[1] !== undefined || /^(decorate|describe)\b/.test(atom)) return safe(paren[0].length);
    return paren[1] === undefined && /^trailers\b/.test(atom)
      ? commit(paren[0].length)
      : { length: k - at + paren[0].length, prints: ALL };
  }
  if (/^[ac][dDrtiIsh]/.test(rest) || /^g[dD]/.test(rest)) return safe(2);
  if (/^[ac][nNeElL]/.test(rest) || /^G./.test(rest)) return commit(2);
  if (/^g[nNeElLs]/.test(rest)) return { length: k - at + 2, prints: REFLOGS };
  if ("sfbBe".includes(c)) return commit(1);
  return { length: k - at + 1, prints: ALL };
}

/** What a user format string prints. */
function userFormat(f: string): GitMessages {
  let out = NONE;
  for (let i = 0; i < f.length; i++) {
    if (f[i] !== "%") continue;
    const p = placeholder(f, i + 1);
    out = union(out, p.prints);
    i += p.length;
  }
  return out;
}

/** What `--pretty=VALUE` / `--format=VALUE` prints (git's get_commit_format): a user format or a named one. */
function format(value: string | null, walk: boolean): GitMessages {
  if (value === null || value === "") return { ...COMMITS, reflogs: walk };
  const user = /^t?format:/.exec(value);
  if (user !== null) return userFormat(value.slice(user[0].length));
  if (value.includes("%")) return userFormat(value);
  // oneline on a reflog walk is `%h %gd: %gs`; every other named format (or an alias from `pretty.*`)
  // prints the message and the identities.
  if (value === "oneline") return walk ? REFLOGS : COMMITS;
  return { ...COMMITS, reflogs: walk };
}

/** What a walk of commits prints with these words (after the subcommand), by its last format option. */
function walkPrints(sub: string, words: readonly string[]): GitMessages {
  const stash = sub === "stash";
  const walk =
    stash ||
    sub === "reflog" ||
    words.some((w) => /^-[A-Za-z]*g[A-Za-z]*$/.test(w) || longOption(w, "walk-reflogs"));
  // Without a format: log, show, whatchanged print medium; reflog and stash list their oneline
  // (`%h %gd: %gs`, `%gd: %gs`); rev-list and diff-tree commit ids; shortlog names and subjects.
  let shown: GitMessages =
    sub === "rev-list" || sub === "diff-tree"
      ? NONE
      : stash || sub === "reflog"
        ? REFLOGS
        : { ...COMMITS, reflogs: walk };
  let searches = NONE;
  for (let k = 0; k < words.length; k++) {
    const w = words[k] as string;
    if (w === "--") break;
    const oneline = longOption(w, "oneline");
    const pretty = longOption(w, "pretty");
    const fmt = longOption(w, "format");
    if (oneline !== undefined) shown = format("oneline", walk);
    else if (pretty !== undefined) shown = format(pretty.value, walk);
    else if (fmt !== undefined) shown = format(fmt.value ?? words[++k] ?? "", walk);
    // `git diff-tree -v` and `rev-list --header` print the commit's message (and raw headers).
    else if ((sub === "diff-tree" && w === "-v") || longOption(w, "header"))
      shown = { ...COMMITS, reflogs: walk };
    if (["grep", "author", "committer"].some((n) => longOption(w, n) !== undefined))
      searches = union(searches, COMMITS);
  }
  // `git show TAG` prints the tag's header and message whatever the format (with no revision it shows
  // HEAD, a commit); shortlog prints the authors (or committers) whatever it is asked to count.
  // Not whatchanged: it skips a commit with no change, and its `-1` prints the first one with a change.
  const head = sub === "log" || sub === "show" ? headCount(sub, words) : undefined;
  if (sub === "show" || sub === "shortlog")
    shown = union(shown, sub === "show" && head === undefined ? OBJECTS : COMMITS);
  const out = union(shown, searches);
  return head !== undefined && out.commits && !out.tags && !out.reflogs ? { ...out, head } : out;
}

/** Options of log and show that change neither which commits are shown nor their order. */
const SAME_COMMITS =
  /^(--oneline|--(format|pretty)(=.*)?|--(no-)?abbrev-commit|--abbrev(=\d+)?|--date=[a-z-]+(:.*)?|--(no-)?decorate(=(short|full|auto|no))?|--no-color|--color(=(always|never|auto))?|--no-notes|--stat|--numstat|--shortstat|--name-only|--name-status|--summary|-p|-u|--patch|-s|--no-patch|--no-renames|--no-expand-tabs)$/;

/**
 * How many commits from HEAD a log or show prints when nothing else chooses them (`git log -5 --oneline`,
 * `git show -s`): the first N of HEAD's walk, as `git rev-list --max-count=N HEAD` lists them, which the
 * companion scans alone (a repository too big to list whole still answers); "all" for a log with no count
 * (`git log --oneline`): HEAD's walk, as `git rev-list HEAD` lists it, not every object of the database
 * (a dangling commit or another branch's is printed only when named). Undefined otherwise.
 */
function headCount(sub: string, words: readonly string[]): number | "all" | undefined {
  let n: number | undefined = sub === "show" ? 1 : undefined;
  for (let k = 0; k < words.length; k++) {
    const w = words[k] as string;
    if (w === "--format") {
      k++; // its value, a separate word
      continue;
    }
    if (sub !== "show" && w === "-n") {
      const v = words[++k] ?? "";
      if (!/^\d+$/.test(v)) return undefined;
      n = Number(v);
      continue;
    }
    const count = sub === "show" ? null : /^(?:-n|-|--max-count=)(\d+)$/.exec(w);
    if (count !== null) n = Number(count[1]);
    else if (!SAME_COMMITS.test(w)) return undefined;
  }
  if (n === undefined) return sub === "log" ? "all" : undefined;
  return n <= 1000 ? n : undefined;
}

/** Atoms of ref-filter (`%(refname:short)`, `*objectname`) that print names, ids, dates, never a message. */
const SAFE_ATOM =
  /^\*?(refname|objectname|objecttype|objectsize|deltabase|tree|parent|numparent|object|type|tag|upstream|push|HEAD|color|align|end|if|then|else|symref|worktreepath|rest|describe|(creator|author|committer|tagger)date)$/;

function atomPrints(atom: string): GitMessages {
  const name = atom
    .replace(/^-/, "")
    .replace(/^(version|v):/, "")
    .replace(/:.*$/, "");
  return SAFE_ATOM.test(name) ? NONE : OBJECTS;
}

/** The ref-filter atoms a ref listing's words name: every `%(atom)` of its `--format`, and what `--sort` orders by. */
export function refFilterAtoms(words: readonly string[]): string[] {
  const atoms: string[] = [];
  for (let k = 0; k < words.length; k++) {
    const w = words[k] as string;
    const fmt = longOption(w, "format");
    const sort = longOption(w, "sort");
    if (fmt !== undefined)
      for (const m of (fmt.value ?? words[++k] ?? "").matchAll(/%\(([^)]*)\)/g)) atoms.push(m[1] ?? "");
    // Ordered by a message, the listing tells how a token compares with the others (a slow oracle).
    else if (sort !== undefined) atoms.push(sort.value ?? words[++k] ?? "");
  }
  return atoms;
}

/** What a ref listing prints: its `--format` and `--sort` atoms, `branch -v`, `tag -n`. */
function refListingPrints(sub: string, words: readonly string[]): GitMessages {
  let out = NONE;
  for (const atom of refFilterAtoms(words)) out = union(out, atomPrints(atom));
  for (const w of words)
    if (sub === "branch" && (/^-[A-Za-z]*v/.test(w) || longOption(w, "verbose"))) out = union(out, OBJECTS);
    else if (sub === "tag" && /^-[A-Za-z]*n/.test(w)) out = union(out, OBJECTS);
  return out;
}

/** `git cat-file --batch-check[=FORMAT]` without `--batch`: ids, types and sizes of the objects named on stdin. */
function checksOnly(words: readonly string[]): boolean {
  const checks = words.filter((w) => w.startsWith("--batch") && w !== "--batch-all-objects");
  return (
    checks.length > 0 &&
    checks.every((w) =>
      /^--batch-check(=(%\((objectname|objecttype|objectsize(:disk)?|deltabase)\)|[ \t])*)?$/.test(w),
    )
  );
}

/**
 * What the unit prints of messages and identities: null when nothing. `subcommand` is the first word
 * after git's own options (git-targets.ts).
 */
export function gitMessages(unit: ExecUnit, subcommand: string | null): GitMessages | null {
  const all = unit.words.map((w) => w.value);
  const at = subcommand === null ? -1 : all.indexOf(subcommand);
  if (subcommand === null || at < 0) return null;
  const rest = all.slice(at + 1);
  if (rest.some((v) => v === null)) return ALL;
  const words = rest as string[];
  const dashes = words.indexOf("--");
  const before = dashes < 0 ? words : words.slice(0, dashes);
  // A revision found by a message (`:/fix`, `HEAD^{/fix}`) in any subcommand that takes one.
  let out: GitMessages =
    subcommand !== "grep" && before.some((w) => /^:\/./.test(w) || w.includes("^{/")) ? COMMITS : NONE;
  if (WALKS.has(subcommand) && (subcommand !== "stash" || words[0] === "list")) {
    const walked = walkPrints(subcommand, subcommand === "stash" ? words.slice(1) : words);
    out = out === NONE ? walked : union(out, walked);
  } else if (REF_LISTINGS.has(subcommand)) out = union(out, refListingPrints(subcommand, words));
  // Authors beside each line; `--porcelain` the summary (subject) too.
  else if (subcommand === "blame" || subcommand === "annotate") out = union(out, COMMITS);
  else if (subcommand === "cherry" && words.some((w) => w === "-v" || longOption(w, "verbose")))
    out = union(out, COMMITS);
  // Every listed commit's subject; with -g (--reflog) the reflog's messages.
  else if (subcommand === "show-branch")
    out = union(out, words.some((w) => /^-g/.test(w) || longOption(w, "reflog")) ? ALL : COMMITS);
  // `-t`, `-s`, `-e` print a type, a size, an exit code, `--batch-check` ids, types and sizes (unless a
  // format asks for more: any `%(rest)`-like atom counts); everything else prints the object.
  else if (subcommand === "cat-file" && !words.some((w) => /^-[tse]$/.test(w)) && !checksOnly(words))
    out = union(out, OBJECTS);
  return out.commits || out.tags || out.reflogs ? out : null;
}
