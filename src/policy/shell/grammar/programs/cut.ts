// cut (GNU coreutils 9.1): reads its operands.
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

export const cut: ProgramGrammar = {
  names: ["cut"],
  options: [
    ...GNU_COMMON,
    opt("-b --bytes -c --characters -d --delimiter -f --fields --output-delimiter"),
    ...["-n", "--complement", "-s --only-delimited", "-z --zero-terminated"].map((n) => flag(n)),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};
