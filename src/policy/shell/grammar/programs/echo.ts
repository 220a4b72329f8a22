// echo and printf (bash builtins; GNU coreutils for /usr/bin/*): their words are strings.
// printf -v NAME assigns a variable (the builtin's name checks apply, see builtins.ts).
import type { ProgramGrammar } from "../spec.ts";
import { opt } from "../spec.ts";

export const echo: ProgramGrammar = {
  names: ["echo"],
  // bash's echo takes -n, -e, -E clusters only as its first words; anything else is printed.
  options: [],
  permute: false,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  dynamicWords: true,
};

export const printf: ProgramGrammar = {
  names: ["printf"],
  options: [opt("-v")],
  permute: false,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  dynamicWords: true,
};
