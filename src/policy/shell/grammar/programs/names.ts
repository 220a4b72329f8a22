// basename, dirname (GNU coreutils 9.1), which (debianutils 5.7) and whereis (util-linux 2.38, its
// default directories only: -B, -M and -S would list directories named here): their operands are names,
// not files they open. basename's and dirname's options only shape what they print, so a word known only
// at run time (`basename $(pwd)`) is a name to them whatever it expands to.
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

export const basename: ProgramGrammar = {
  names: ["basename"],
  options: [...GNU_COMMON, flag("-a --multiple"), opt("-s --suffix"), flag("-z --zero")],
  permute: true,
  abbreviate: true,
  operands: ["string"],
  effect: "read",
  dynamicWords: true,
};

export const dirname: ProgramGrammar = {
  names: ["dirname"],
  options: [...GNU_COMMON, flag("-z --zero")],
  permute: true,
  abbreviate: true,
  operands: ["string"],
  effect: "read",
  dynamicWords: true,
};

export const which: ProgramGrammar = {
  names: ["which"],
  options: [flag("-a"), flag("-s")],
  permute: false,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
};

export const whereis: ProgramGrammar = {
  names: ["whereis"],
  options: [...["-b", "-m", "-s", "-u", "-l", "-h --help", "-V --version"].map((n) => flag(n))],
  permute: true,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
};
