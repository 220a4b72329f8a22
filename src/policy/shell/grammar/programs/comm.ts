// comm and join (GNU coreutils 9.1): compare two sorted files line by line (`-` is standard input) and
// print to standard output. join's obsolete `-o 1.1 2.2` may take a later operand as more of its format,
// so every operand is placed as a file it reads: at worst a format is taken for a read.
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

const ORDER = [flag("--check-order"), flag("--nocheck-order"), flag("-z --zero-terminated")];
const FILE_NUMBER = ["1", "2"];

export const comm: ProgramGrammar = {
  names: ["comm"],
  options: [
    ...GNU_COMMON,
    ...ORDER,
    flag("-1"),
    flag("-2"),
    flag("-3"),
    flag("--total"),
    opt("--output-delimiter"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};

export const join: ProgramGrammar = {
  names: ["join"],
  options: [
    ...GNU_COMMON,
    ...ORDER,
    flag("-i --ignore-case"),
    flag("--header"),
    opt("-a", "string", { choices: FILE_NUMBER }),
    opt("-v", "string", { choices: FILE_NUMBER }),
    opt("-1 -2 -j", "number"),
    opt("-e -o -t"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};
