// cmp (GNU diffutils 3.8): compares two files byte by byte (reads both; `-` is standard input), then
// optional byte counts to skip in each.
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

export const cmp: ProgramGrammar = {
  names: ["cmp"],
  options: [
    ...GNU_COMMON.filter((o) => !o.names.includes("--version")),
    flag("-v --version"),
    flag("-b --print-bytes"),
    flag("-l --verbose"),
    flag("-s --quiet --silent"),
    opt("-i --ignore-initial"),
    opt("-n --bytes"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read", "read", "number", "number"],
  effect: "read",
  finish(p) {
    const extra = p.operands[4];
    return extra === undefined ? null : { word: extra.raw, reason: "cmp takes at most four operands" };
  },
};
