// stat (GNU coreutils 9.1): shows metadata of its operands (not contents).
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

export const stat: ProgramGrammar = {
  names: ["stat"],
  options: [
    ...GNU_COMMON,
    ...["-L --dereference", "-f --file-system", "-t --terse"].map((n) => flag(n)),
    opt("--cached", "string", { choices: ["always", "never", "default"] }),
    opt("-c --format --printf"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["list"],
  effect: "read",
};
