// Programs that print numbers, dates and words from their arguments and standard input: numfmt (GNU
// coreutils 9.1), yes, cal (util-linux 2.38 or ncal: months and years, never a file) and GNU bc 1.07.1,
// which reads its operands as its program (a file of numbers is printed back, so they are reads). bc has
// no shell escape and no file output (`!x` is logical not); BC_ENV_ARGS adds files to it (env-vars.ts).
import { flag, GNU_COMMON, opt, optional, type ProgramGrammar } from "../spec.ts";

export const numfmt: ProgramGrammar = {
  names: ["numfmt"],
  options: [
    ...GNU_COMMON,
    ...["--debug", "--grouping", "-z --zero-terminated"].map((n) => flag(n)),
    opt(
      "-d --delimiter --field --format --from --from-unit --invalid --padding --round --suffix --to --to-unit",
    ),
    optional("--header", "number"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["string"],
  effect: "read",
};

export const yes: ProgramGrammar = {
  names: ["yes"],
  options: [...GNU_COMMON],
  permute: true,
  abbreviate: true,
  operands: ["string"],
  effect: "read",
  dynamicWords: true,
};

export const cal: ProgramGrammar = {
  names: ["cal", "ncal"],
  options: [
    ...[
      "-1 --one",
      "-3 --three",
      "-j --julian",
      "-m --monday",
      "-s --sunday",
      "-y --year",
      "-Y --twelve",
      "-w --week",
      "-v --vertical",
    ].map((n) => flag(n)),
    ...["-h --help", "-V --version", "-b", "-C", "-e", "-o", "-p", "-J"].map((n) => flag(n)),
    optional("--color"),
    opt("-A -B -n --months", "number"),
    opt("-d"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["string"],
  effect: "read",
};

export const bc: ProgramGrammar = {
  names: ["bc"],
  options: [
    ...["-h --help", "-l --mathlib", "-q --quiet", "-s --standard", "-w --warn", "-v --version"].map((n) =>
      flag(n),
    ),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};
