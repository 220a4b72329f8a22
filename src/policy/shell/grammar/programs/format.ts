// pr and fmt (GNU coreutils 9.1): they lay out their operands' lines on standard output (standard input
// when none, `-` too); no option names a file. pr's `+PAGE[:LAST]` operand is a page range, placed here as
// a read of a file by that name (what pr does with it matters less than that it opens nothing else).
import { flag, GNU_COMMON, opt, optional, type ProgramGrammar } from "../spec.ts";

export const pr: ProgramGrammar = {
  names: ["pr"],
  options: [
    ...GNU_COMMON,
    ...[
      "-a --across",
      "-c --show-control-chars",
      "-d --double-space",
      "-F -f --form-feed",
      "-J --join-lines",
    ].map((n) => flag(n)),
    ...["-m --merge", "-r --no-file-warnings", "-t --omit-header", "-T --omit-pagination"].map((n) =>
      flag(n),
    ),
    flag("-v --show-nonprinting"),
    opt("-D --date-format -h --header"),
    opt("--columns -l --length -N --first-line-number -o --indent -w --width -W --page-width", "number"),
    optional("-e --expand-tabs -i --output-tabs -n --number-lines -s --separator -S --sep-string"),
  ],
  numeric: { names: ["--columns"], value: "required", kind: "number" },
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};

export const fmt: ProgramGrammar = {
  names: ["fmt"],
  options: [
    ...GNU_COMMON,
    ...["-c --crown-margin", "-s --split-only", "-t --tagged-paragraph", "-u --uniform-spacing"].map((n) =>
      flag(n),
    ),
    opt("-p --prefix"),
    opt("-w --width -g --goal", "number"),
  ],
  numeric: { names: ["--width"], value: "required", kind: "number" },
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};
