// basename, dirname (GNU coreutils 9.1) and which (debianutils 5.7): their operands are names,
// not files they open.
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

export const basename: ProgramGrammar = {
  names: ["basename"],
  options: [...GNU_COMMON, flag("-a --multiple"), opt("-s --suffix"), flag("-z --zero")],
  permute: true,
  abbreviate: true,
  operands: ["string"],
  effect: "read",
};

export const dirname: ProgramGrammar = {
  names: ["dirname"],
  options: [...GNU_COMMON, flag("-z --zero")],
  permute: true,
  abbreviate: true,
  operands: ["string"],
  effect: "read",
};

export const which: ProgramGrammar = {
  names: ["which"],
  options: [flag("-a"), flag("-s")],
  permute: false,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
};
