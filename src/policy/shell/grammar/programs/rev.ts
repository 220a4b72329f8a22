// rev (util-linux 2.38): prints its operands' lines reversed (standard input when none); `-h`, `-V`.
// It opens `-` as a file of that name (a repository may ship a link so named), not standard input.
import { pathEffect } from "../parse.ts";
import { flag, type ProgramGrammar } from "../spec.ts";

export const rev: ProgramGrammar = {
  names: ["rev"],
  options: [flag("-h --help"), flag("-V --version")],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  finish(p, out) {
    for (const a of p.operands) if (a.value === "-") out.paths.push(pathEffect("read", a));
    return null;
  },
};
