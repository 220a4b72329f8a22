// head and tail (GNU coreutils 9.1): read their operands; `-NUM` is a line count; tail's follow
// options only read the same files again.
import { flag, GNU_COMMON, opt, optional, type ProgramGrammar } from "../spec.ts";

const COUNT = opt("-n --lines", "string");

export const head: ProgramGrammar = {
  names: ["head"],
  options: [
    ...GNU_COMMON,
    opt("-c --bytes"),
    COUNT,
    flag("-q --quiet --silent"),
    flag("-v --verbose"),
    flag("-z --zero-terminated"),
  ],
  numeric: COUNT,
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};

export const tail: ProgramGrammar = {
  names: ["tail"],
  options: [
    ...GNU_COMMON,
    opt("-c --bytes"),
    COUNT,
    optional("-f --follow", "string", ["name", "descriptor"]),
    flag("-F"),
    opt("--max-unchanged-stats", "number"),
    opt("--pid", "number"),
    flag("-q --quiet --silent"),
    flag("--retry"),
    opt("-s --sleep-interval", "number"),
    flag("-v --verbose"),
    flag("-z --zero-terminated"),
  ],
  numeric: COUNT,
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
};
