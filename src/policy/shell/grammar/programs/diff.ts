// diff (GNU diffutils 3.8): reads both operands; with -r (or --recursive by any unique prefix)
// and directory operands it reads every file below them, following symlinks unless
// --no-dereference. -l runs `pr` (not understood).
import { listOrWalk } from "../effects.ts";
import { COLOR_WHEN, flag, opt, optional, type ProgramGrammar } from "../spec.ts";

export const diff: ProgramGrammar = {
  names: ["diff"],
  options: [
    ...["--help", "-v --version", "--normal", "-q --brief", "-s --report-identical-files", "-c", "-u"].map(
      (n) => flag(n),
    ),
    ...["-e --ed", "-n --rcs", "-y --side-by-side", "--left-column", "--suppress-common-lines"].map((n) =>
      flag(n),
    ),
    ...["-p --show-c-function", "-t --expand-tabs", "-T --initial-tab", "--suppress-blank-empty"].map((n) =>
      flag(n),
    ),
    ...[
      "-N --new-file",
      "--unidirectional-new-file",
      "--ignore-file-name-case",
      "--no-ignore-file-name-case",
    ].map((n) => flag(n)),
    ...[
      "-i --ignore-case",
      "-E --ignore-tab-expansion",
      "-Z --ignore-trailing-space",
      "-b --ignore-space-change",
    ].map((n) => flag(n)),
    ...[
      "-w --ignore-all-space",
      "-B --ignore-blank-lines",
      "-a --text",
      "--strip-trailing-cr",
      "-d --minimal",
    ].map((n) => flag(n)),
    flag("--speed-large-files"),
    flag("-r --recursive", "recursive"),
    flag("--no-dereference", "no-follow"),
    flag("-l --paginate", "runs"),
    optional("--context --unified", "number"),
    opt("-C -U -W --width --tabsize --horizon-lines", "number"),
    opt("-F --show-function-line -I --ignore-matching-lines", "pattern"),
    opt("--label -D --ifdef --palette"),
    opt("-x --exclude", "pattern"),
    opt("-X --exclude-from", "read"),
    opt("-S --starting-file"),
    opt("--from-file --to-file", "read", { mode: "compare-with" }),
    opt("--line-format --old-line-format --new-line-format --unchanged-line-format"),
    opt("--old-group-format --new-group-format --changed-group-format --unchanged-group-format"),
    optional("--color", "string", COLOR_WHEN),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  finish(p, out) {
    const pr = p.options.find((o) => o.spec.mode === "runs");
    if (pr !== undefined) return { word: pr.word.raw, reason: "diff -l runs pr on the output" };
    const recursive = p.has("recursive");
    const follow = p.has("no-follow") ? "none" : "all";
    // An operand may be a directory: diff then reads the file of the same name in it, or with -r every file below.
    const compared = [...p.operands, ...p.values("compare-with")];
    listOrWalk(p, out, { recursive, follow, dflt: null, contents: true, oneLevel: true }, compared);
    return null;
  },
};
