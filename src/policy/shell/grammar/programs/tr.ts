// tr (GNU coreutils 9.1): standard input to standard output; its operands are character sets.
import { flag, GNU_COMMON, type ProgramGrammar } from "../spec.ts";

export const tr: ProgramGrammar = {
  names: ["tr"],
  options: [
    ...GNU_COMMON,
    ...["-c -C --complement", "-d --delete", "-s --squeeze-repeats", "-t --truncate-set1"].map((n) =>
      flag(n),
    ),
  ],
  permute: true,
  abbreviate: true,
  operands: ["string"],
  effect: "read",
};
