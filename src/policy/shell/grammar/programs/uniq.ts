// uniq (GNU coreutils 9.1): reads INPUT, writes OUTPUT when a second operand is given.
import { raise } from "../effects.ts";
import { flag, GNU_COMMON, opt, optional, type ProgramGrammar } from "../spec.ts";

export const uniq: ProgramGrammar = {
  names: ["uniq"],
  options: [
    ...GNU_COMMON,
    ...["-c --count", "-d --repeated", "-D", "-i --ignore-case", "-u --unique", "-z --zero-terminated"].map(
      (n) => flag(n),
    ),
    optional("--all-repeated", "string", ["none", "prepend", "separate"]),
    optional("--group", "string", ["prepend", "append", "separate", "both"]),
    opt("-f --skip-fields -s --skip-chars -w --check-chars", "number"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read", "write"],
  effect: "read",
  finish(p, out) {
    if (p.operands.length > 2)
      return { word: p.operands[2]?.raw ?? "", reason: "uniq takes at most two operands" };
    if (out.paths.some((e) => e.access === "write")) raise(out, "write");
    return null;
  },
};
