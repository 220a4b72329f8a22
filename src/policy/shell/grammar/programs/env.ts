// env (GNU coreutils 9.1): options, NAME=VALUE assignments, then the command it runs (judged on
// its own by wrappers.ts, with what env gives it). Options stop at the first operand.
import { flag, GNU_COMMON, opt, optional, type ProgramGrammar } from "../spec.ts";

export const env: ProgramGrammar = {
  names: ["env"],
  options: [
    ...GNU_COMMON,
    flag("-i --ignore-environment"),
    flag("-0 --null"),
    flag("-v --debug"),
    flag("--list-signal-handling"),
    opt("-u --unset"),
    opt("-C --chdir", "list"),
    opt("-S --split-string"),
    optional("--block-signal --default-signal --ignore-signal"),
  ],
  permute: false,
  abbreviate: true,
  operands: ["string"],
  effect: "read",
};
