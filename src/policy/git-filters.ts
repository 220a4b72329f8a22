// Which git units run the clean filters the files' attributes select, printing nothing of them: a refresh of
// the index (`git status`, `describe --dirty`, `ls-files -m`) or a diff of the work tree (`git diff --stat`,
// `--name-only`, `--quiet`) hashes a file whose stat changed through its filter (`filter.X.clean`, or the
// long-running `filter.X.process`), and blame and hash-object read the work tree through it; checked with
// strace (issue 20). The companion asks when a filter of the user's configuration is selected
// (guards/git-filter-drivers.ts). Writers are listed too, though they ask anyway.
const RUN_CLEAN_FILTERS = new Set([
  ...["status", "diff", "diff-files", "diff-index", "ls-files", "describe", "blame", "annotate"],
  ...["hash-object", "add", "commit", "stash", "update-index", "rm", "mv", "merge", "rebase", "cherry-pick"],
  ...["revert", "pull", "am", "apply", "checkout", "switch", "restore", "reset", "worktree"],
]);

/** The subcommand may run a clean filter on a work-tree file. */
export function runsCleanFilters(subcommand: string | null): boolean {
  return subcommand !== null && RUN_CLEAN_FILTERS.has(subcommand);
}
