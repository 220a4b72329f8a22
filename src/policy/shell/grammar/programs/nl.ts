// nl (GNU coreutils 9.1): numbers the lines of its operands (standard input when none, `-` too). Every
// option's value is a style (`a`, `t`, `n`, `pBRE`), a delimiter, a format or a number: never a path.
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

export const nl: ProgramGrammar = {
  names: ["nl"],
  options: [
    ...GNU_COMMON,
    opt("-b --body-numbering -f --footer-numbering -h --header-numbering"),
    opt("-d --section-delimiter -n --number-format -s --number-separator"),
    opt("-i --line-increment -l --join-blank-lines -v --starting-line-number -w --number-width", "number"),
    flag("-p --no-renumber"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};
