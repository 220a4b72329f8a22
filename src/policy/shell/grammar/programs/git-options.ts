// The options of git's read-only subcommands (git 2.39, from git-log(1), git-diff(1), git-blame(1),
// git-status(1), git-ls-files(1), …): what is understood. An option not listed here makes the
// command not understood; options that write (--output), run programs (--ext-diff, --textconv,
// -O, --show-signature) or read files anywhere (--no-index, --contents, -O<orderfile>) carry a mode
// the git grammar turns into an effect or a refusal.
import { flag, lastDefault, type OptionSpec, opt, optional } from "../spec.ts";

const flags = (...names: string[]): OptionSpec[] => names.map((n) => flag(n));

/** Options of the diff machinery (git diff, log -p, show, diff-tree, stash show). */
export const DIFF_OPTIONS: readonly OptionSpec[] = [
  ...flags("-p -u --patch", "-s --no-patch", "--raw", "--patch-with-raw", "--patch-with-stat", "--numstat"),
  ...flags("--shortstat", "--summary", "--name-only", "--name-status", "--no-color", "--no-renames"),
  ...flags(
    "--find-copies-harder",
    "-D --irreversible-delete",
    "--pickaxe-all",
    "--pickaxe-regex",
    "-a --text",
  ),
  ...flags(
    "--ignore-space-at-eol",
    "-b --ignore-space-change",
    "-w --ignore-all-space",
    "--ignore-blank-lines",
  ),
  ...flags("--ignore-cr-at-eol", "-W --function-context", "--exit-code", "--quiet", "--no-ext-diff"),
  ...flags(
    "--no-textconv",
    "--no-prefix",
    "--default-prefix",
    "--ita-invisible-in-index",
    "--ita-visible-in-index",
  ),
  ...flags("--binary", "--full-index", "--minimal", "--patience", "--histogram", "--indent-heuristic"),
  ...flags("--no-indent-heuristic", "--compact-summary", "--cached --staged", "--merge-base", "-R", "-z"),
  ...flags(
    "--check",
    "--no-color-moved",
    "--no-color-moved-ws",
    "-1 --base",
    "-2 --ours",
    "-3 --theirs",
    "-0",
  ),
  ...flags("--no-relative", "--rename-empty", "--no-rename-empty", "--no-stat", "--color-words"),
  optional("--stat --dirstat --submodule --color --word-diff --color-words --relative --ignore-submodules"),
  optional("--color-moved --find-renames --find-copies --break-rewrites --abbrev"),
  optional("-M -C -B -l", "number"),
  opt(
    "-U --unified --inter-hunk-context --stat-width --stat-name-width --stat-count --stat-graph-width",
    "number",
  ),
  opt("-S -G --diff-algorithm --anchored --src-prefix --dst-prefix --line-prefix --diff-filter", "pattern"),
  opt("--color-moved-ws --word-diff-regex --ws-error-highlight", "string"),
  opt("-O", "read"),
  opt("--output", "write", { mode: "output" }),
  flag("--ext-diff --textconv", "runs"),
  flag("--no-index", "no-index"),
];

/** Options of the revision walk (git log, show, rev-list, shortlog, whatchanged). */
export const LOG_OPTIONS: readonly OptionSpec[] = [
  ...DIFF_OPTIONS,
  ...flags(
    "--all-match",
    "--invert-grep",
    "-i --regexp-ignore-case",
    "-E --extended-regexp",
    "-F --fixed-strings",
  ),
  ...flags(
    "-P --perl-regexp",
    "--basic-regexp",
    "--merges",
    "--no-merges",
    "--first-parent",
    "--all",
    "--reflog",
  ),
  ...flags(
    "--not",
    "--oneline",
    "--abbrev-commit",
    "--no-abbrev-commit",
    "--no-decorate",
    "--source",
    "--graph",
  ),
  ...flags(
    "--relative-date",
    "--reverse",
    "--topo-order",
    "--date-order",
    "--author-date-order",
    "--left-right",
  ),
  ...flags(
    "--cherry-pick",
    "--cherry-mark",
    "--cherry",
    "--boundary",
    "--ancestry-path",
    "--simplify-by-decoration",
  ),
  ...flags("--full-history", "--dense", "--sparse", "--simplify-merges", "--follow", "-g --walk-reflogs"),
  ...flags(
    "--mailmap --use-mailmap",
    "--no-mailmap --no-use-mailmap",
    "--no-notes",
    "--show-notes",
    "--log-size",
  ),
  ...flags("--parents", "--children", "--no-expand-tabs", "--stdin", "--do-walk", "--count", "--objects"),
  ...flags("--timestamp", "--full-diff", "-m", "-c", "--cc", "--remerge-diff", "--no-diff-merges", "-t"),
  ...flags("--clear-decorations", "--no-walk", "--no-min-parents", "--no-max-parents", "--single-worktree"),
  ...flags("--bisect", "--left-only", "--right-only"),
  optional("--pretty --decorate --notes --expand-tabs --branches --tags --remotes --no-walk --ancestry-path"),
  opt("-n --max-count --skip --min-parents --max-parents", "number"),
  opt("--since --after --until --before --since-as-filter --author --committer --grep --date --encoding"),
  opt("--format --glob --exclude --diff-merges --decorate-refs --decorate-refs-exclude --group"),
  opt("-L", "string", { mode: "line-range" }),
  flag("--show-signature", "runs"),
];

export const SHORTLOG_OPTIONS: readonly OptionSpec[] = [
  ...LOG_OPTIONS,
  ...flags("-n --numbered", "-s --summary", "-e --email", "-c --committer"),
  optional("-w", "string"),
];

export const BLAME_OPTIONS: readonly OptionSpec[] = [
  ...flags("-b", "--root", "--show-stats", "-l", "-t", "-p --porcelain", "--line-porcelain", "--incremental"),
  ...flags("--reverse", "--first-parent", "--progress", "--no-progress", "-s", "-e --show-email", "-w"),
  ...flags("-c", "-f --show-name", "-n --show-number", "--color-lines", "--color-by-age", "--minimal"),
  optional("-M -C", "number"),
  optional("--abbrev"),
  opt("-L --date --encoding --ignore-rev"),
  opt("-S --ignore-revs-file", "read"),
  opt("--contents", "read"),
];

export const STATUS_OPTIONS: readonly OptionSpec[] = [
  ...flags("-s --short", "-b --branch", "--show-stash", "--long", "-v --verbose", "-z", "--no-column"),
  ...flags(
    "--ahead-behind",
    "--no-ahead-behind",
    "--renames",
    "--no-renames",
    "--no-ignored",
    "--no-renames",
  ),
  optional("--porcelain", "string", ["v1", "v2"]),
  optional("-u --untracked-files", "string", ["no", "normal", "all"]),
  optional("--ignore-submodules", "string", ["none", "untracked", "dirty", "all"]),
  optional("--ignored", "string", ["traditional", "no", "matching"]),
  optional("--column --find-renames"),
];

/**
 * `git clean` (2.39) in its dry run only (git-forms.ts cleanForm): -f, given once or twice, only lifts
 * clean.requireForce, and with -n git prints what it would remove and removes nothing (builtin/clean.c);
 * -i (a menu that deletes) is not listed.
 */
export const CLEAN_OPTIONS: readonly OptionSpec[] = [
  flag("-n --dry-run", "dry-run"),
  ...flags("-d", "-f --force", "-q --quiet", "-x", "-X"),
  opt("-e --exclude", "pattern"),
];

export const LS_FILES_OPTIONS: readonly OptionSpec[] = [
  ...flags("-c --cached", "-d --deleted", "-m --modified", "-o --others", "-i --ignored", "-s --stage"),
  ...flags(
    "-u --unmerged",
    "-k --killed",
    "-z",
    "-t",
    "-v",
    "-f",
    "--directory",
    "--no-empty-directory",
    "--eol",
  ),
  ...flags("--deduplicate", "--exclude-standard", "--error-unmatch", "--full-name", "--recurse-submodules"),
  ...flags("--debug", "--sparse", "--resolve-undo"),
  optional("--abbrev"),
  opt("-x --exclude --exclude-per-directory --with-tree --format", "pattern"),
  opt("-X --exclude-from", "read"),
];

export const LS_TREE_OPTIONS: readonly OptionSpec[] = [
  ...flags("-d", "-r", "-t", "-l --long", "-z", "--name-only --name-status", "--object-only", "--full-name"),
  ...flags("--full-tree"),
  optional("--abbrev"),
  opt("--format"),
];

export const LISTING_REF_OPTIONS: readonly OptionSpec[] = [
  ...flags("-a --all", "-r --remotes", "-l --list", "-v -vv --verbose", "--show-current", "--no-color"),
  ...flags("--no-column", "-i --ignore-case", "--no-abbrev", "--omit-empty"),
  optional("--color --column --abbrev"),
  optional("-n", "number"),
  lastDefault("--contains --no-contains --merged --no-merged"),
  opt("--points-at --sort --format"),
];

export const REV_PARSE_OPTIONS: readonly OptionSpec[] = [
  ...flags(
    "--show-toplevel",
    "--git-dir",
    "--verify",
    "-q --quiet",
    "--is-inside-work-tree",
    "--is-inside-git-dir",
  ),
  ...flags(
    "--is-bare-repository",
    "--show-prefix",
    "--show-cdup",
    "--symbolic",
    "--symbolic-full-name",
    "--all",
  ),
  ...flags("--git-common-dir", "--absolute-git-dir", "--is-shallow-repository", "--local-env-vars", "--sq"),
  ...flags("--show-superproject-working-tree", "--revs-only", "--no-revs", "--flags", "--no-flags"),
  ...flags("--shared-index-path", "--sq-quote", "--keep-dashdash", "--stop-at-non-option", "--not"),
  optional("--abbrev-ref --short --branches --tags --remotes --show-object-format --disambiguate"),
  opt("--default --prefix --since --until --after --before --path-format --glob --exclude"),
  opt("--git-path --resolve-git-dir", "list"),
];

export const DESCRIBE_OPTIONS: readonly OptionSpec[] = [
  ...flags(
    "--all",
    "--tags",
    "--contains",
    "--exact-match",
    "--debug",
    "--long",
    "--always",
    "--first-parent",
  ),
  optional("--dirty --broken --abbrev"),
  opt("--candidates --match --exclude"),
];

export const GREP_OPTIONS: readonly OptionSpec[] = [
  ...flags("-i --ignore-case", "-I", "-w --word-regexp", "-v --invert-match", "-n --line-number", "--column"),
  ...flags("-l --files-with-matches --name-only", "-L --files-without-match", "-c --count", "-h", "-H"),
  ...flags(
    "--full-name",
    "-E --extended-regexp",
    "-G --basic-regexp",
    "-F --fixed-strings",
    "-P --perl-regexp",
  ),
  ...flags("--and", "--or", "--not", "(", ")", "--all-match", "-q --quiet", "--cached", "-a --text", "-p"),
  ...flags(
    "--show-function",
    "-W --function-context",
    "--break",
    "--heading",
    "-o --only-matching",
    "-z --null",
  ),
  ...flags(
    "--exclude-standard",
    "--no-exclude-standard",
    "--recurse-submodules",
    "-r --recursive",
    "--no-recursive",
  ),
  ...flags("--no-textconv", "--no-color"),
  optional("--color"),
  opt("--max-depth -A --after-context -B --before-context -C --context -m --max-count --threads", "number"),
  opt("-e", "pattern", { mode: "pattern" }),
  opt("-f", "read", { mode: "pattern" }),
  flag("--untracked", "untracked"),
  flag("--no-index", "no-index"),
  flag("--textconv", "runs"),
  optional("-O --open-files-in-pager", "exec", undefined),
];

export const CAT_FILE_OPTIONS: readonly OptionSpec[] = [
  ...flags(
    "-t",
    "-s",
    "-e",
    "-p",
    "--allow-unknown-type",
    "--buffer",
    "--unordered",
    "-Z",
    "--follow-symlinks",
  ),
  ...flags("--batch-all-objects", "--batch-command", "--use-mailmap", "--no-use-mailmap"),
  optional("--batch --batch-check"),
  opt("--path"),
  flag("--textconv --filters", "runs"),
];

/** Where `git config` reads (builtin/config.c's CONFIG_LOCATION_OPTIONS): every form and subcommand takes them. */
export const CONFIG_LOCATION_OPTIONS: readonly OptionSpec[] = [
  ...flags("--global", "--system", "--local", "--worktree"),
  opt("-f --file --blob", "read"),
];

/** How `git config` prints what it reads (CONFIG_DISPLAY_OPTIONS, with the type options). */
export const CONFIG_DISPLAY_OPTIONS: readonly OptionSpec[] = [
  ...flags("-z --null", "--name-only", "--show-origin", "--show-scope", "--show-names"),
  ...flags("--bool", "--int", "--bool-or-int", "--bool-or-str", "--path", "--expiry-date"),
  opt("-t --type"),
];

export const CONFIG_READ_OPTIONS: readonly OptionSpec[] = [
  ...flags(
    "--get",
    "--get-all",
    "--get-regexp",
    "--get-urlmatch",
    "-l --list",
    "--get-color",
    "--get-colorbool",
  ),
  ...CONFIG_LOCATION_OPTIONS,
  ...CONFIG_DISPLAY_OPTIONS,
  ...flags("--includes", "--no-includes", "--fixed-value"),
  opt("--default"),
];

export const SHOW_REF_OPTIONS: readonly OptionSpec[] = [
  ...flags("--head", "--heads", "--tags", "-d --dereference", "--verify", "-q --quiet"),
  optional("-s --hash --abbrev --exclude-existing"),
];

export const FOR_EACH_REF_OPTIONS: readonly OptionSpec[] = [
  ...flags("--shell", "--perl", "--python", "--tcl", "--ignore-case", "--no-color", "--omit-empty"),
  optional("--color"),
  lastDefault("--merged --no-merged --contains --no-contains"),
  opt("--count", "number"),
  opt("--sort --format --points-at --exclude"),
];

/**
 * `git help` (2.39) in its listing forms only: commands, guides, configuration names. A command or
 * guide operand opens its page through man, info or a browser (help.format, man.viewer and
 * help.browser name programs), and -i/-m/-w choose those: not listed, so not understood.
 */
export const HELP_OPTIONS: readonly OptionSpec[] = [
  ...flags("-a --all", "--verbose", "--external-commands", "--aliases", "-g --guides", "-c --config"),
  ...flags("--user-interfaces", "--developer-interfaces"),
];

export const MISC_OPTIONS: Readonly<Record<string, readonly OptionSpec[]>> = {
  "merge-base": flags("-a --all", "--octopus", "--independent", "--is-ancestor", "--fork-point"),
  "name-rev": [
    ...flags("--tags", "--all", "--stdin", "--annotate-stdin", "--name-only", "--no-undefined", "--always"),
    opt("--refs --exclude"),
  ],
  "count-objects": flags("-v --verbose", "-H --human-readable"),
  // git-fsck(1), 2.39: checks the objects and prints object ids and problems (strace: no write; it runs git's
  // own commit-graph and multi-pack-index verify). --lost-found (writes .git/lost-found) is not listed.
  fsck: [
    ...flags("-v --verbose", "--unreachable", "--dangling", "--tags", "--root", "--cache", "--reflogs"),
    ...flags("--full", "--connectivity-only", "--strict", "--progress", "--name-objects"),
  ],
  "check-ignore": flags("-q --quiet", "-v --verbose", "--stdin", "-z", "-n --non-matching", "--no-index"),
  version: flags("--build-options"),
  // One operand reads the symbolic ref (`--short HEAD`: the branch); two set it, -d deletes it (git-forms.ts).
  "symbolic-ref": flags("-q --quiet", "--short", "--recurse", "--no-recurse"),
  // Commits of HEAD not yet upstream (patch ids compared, subjects printed with -v): revisions only.
  cherry: [...flags("-v --verbose"), optional("--abbrev", "number")],
  "check-attr": [...flags("-a --all", "--cached", "--stdin", "-z")],
  // Branch heads and their commits' subjects (git-messages.ts counts them as printed); -g prints reflogs.
  "show-branch": [
    ...flags(
      "-a --all",
      "-r --remotes",
      "--topo-order",
      "--date-order",
      "--current",
      "--no-color",
      "--sparse",
    ),
    ...flags("--list", "--merge-base", "--independent", "--no-name", "--sha1-name", "--topics"),
    optional("--color --more"),
    optional("-g --reflog"),
  ],
};

/**
 * git hash-object FILE prints the blob id of FILE (read through its clean filter; guards/git-filter-drivers.ts).
 * -w (writes the object), --stdin-paths (paths not named here) and --path (another path's attributes, so
 * another filter) are not listed.
 */
export const HASH_OBJECT_OPTIONS: readonly OptionSpec[] = [
  ...flags("--stdin", "--no-filters", "--literally"),
  opt("-t", "string", { choices: ["blob", "commit", "tree", "tag"] }),
];

/**
 * git apply's options that do not write (builtin/apply.c, 2.39); --stat, --numstat, --summary and --check
 * turn applying off (git-forms.ts requires one). --apply, --reject, -3, --intent-to-add, --build-fake-ancestor
 * (writes FILE), and --unsafe-paths and --directory (the patch's paths outside the work tree, whose lines
 * --check would then test) are not listed.
 */
export const APPLY_OPTIONS: readonly OptionSpec[] = [
  ...["--stat", "--numstat", "--summary", "--check"].map((n) => flag(n, "no-apply")),
  ...flags("--index", "--cached", "-z", "-R --reverse", "--unidiff-zero", "--allow-overlap", "-v --verbose"),
  ...flags("-q --quiet", "--inaccurate-eof", "--recount", "--allow-empty", "--ignore-space-change"),
  flag("--ignore-whitespace"),
  opt("-p -C", "number"),
  opt("--whitespace", "string", { choices: ["nowarn", "warn", "fix", "error", "error-all", "strip"] }),
  opt("--exclude --include", "pattern"),
];
