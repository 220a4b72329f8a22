// Options of git subcommands that print text built from history or from a file and write nothing (git 2.39):
// range-diff, format-patch --stdout, stripspace, interpret-trailers. What their configuration runs or reads
// (textconv drivers on range-diff's patches, trailer.<token>.command/.cmd on interpret-trailers,
// format.signatureFile on format-patch) is the disk's to find: such a key makes every git unit ask
// (guards/git-config-programs.ts).
import { flag, type OptionSpec, opt, optional } from "../spec.ts";
import { DIFF_OPTIONS, LOG_OPTIONS } from "./git-options.ts";

const flags = (...names: string[]): OptionSpec[] => names.map((n) => flag(n));

/** git range-diff passes the diff options to the `git log -p` it runs on each range. */
export const RANGE_DIFF_OPTIONS: readonly OptionSpec[] = [
  ...DIFF_OPTIONS,
  ...flags("--dual-color", "--left-only", "--right-only"),
  opt("--creation-factor", "number"),
  optional("--notes"),
];

/**
 * git format-patch prints each commit as a mail; it writes one file per commit unless --stdout is in effect
 * (git-forms.ts requires it, never negated). -o/--output-directory, --signature-file and --description-file
 * (files it reads), --interdiff/--range-diff and the mail headers' own files are not listed.
 */
export const FORMAT_PATCH_OPTIONS: readonly OptionSpec[] = [
  ...LOG_OPTIONS,
  flag("--stdout", "stdout"),
  ...flags("-n --numbered", "-N --no-numbered", "-k --keep-subject", "-s --signoff", "--cover-letter"),
  ...flags("--numbered-files", "--rfc", "--zero-commit", "--ignore-if-in-upstream", "--no-signature"),
  ...flags("--no-binary", "--no-attach", "--no-thread", "--progress", "-q --quiet"),
  optional("--attach --inline --thread --from"),
  opt("--subject-prefix --signature --to --cc --add-header --in-reply-to --base --suffix"),
  opt("-v --reroll-count"),
  opt("--start-number --filename-max-length", "number"),
];

/** git stripspace filters standard input to standard output; -s and -c read core.commentChar. */
export const STRIPSPACE_OPTIONS: readonly OptionSpec[] = flags("-s --strip-comments", "-c --comment-lines");

/**
 * git interpret-trailers prints each file (or standard input) with its trailers parsed or added; --in-place
 * rewrites the files and is not listed.
 */
export const INTERPRET_TRAILERS_OPTIONS: readonly OptionSpec[] = [
  ...flags("--trim-empty", "--only-trailers", "--only-input", "--unfold", "--parse", "--no-divider"),
  opt("--trailer"),
  opt("--where", "string", { choices: ["after", "before", "end", "start"] }),
  opt("--if-exists", "string", {
    choices: ["addIfDifferentNeighbor", "addIfDifferent", "add", "replace", "doNothing"],
  }),
  opt("--if-missing", "string", { choices: ["doNothing", "add"] }),
];
