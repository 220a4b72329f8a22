// expand and unexpand (GNU coreutils 9.1): convert tabs to spaces and back in their operands (standard
// input when none, `-` too), to standard output. The obsolete `-NUM` is `-t NUM`; `-4,8` is not modelled.
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

const TABS = opt("-t --tabs");

const tabs = (names: string[], options: ProgramGrammar["options"]): ProgramGrammar => ({
  names,
  options: [...GNU_COMMON, TABS, ...options],
  numeric: TABS,
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
});

export const expand = tabs(["expand"], [flag("-i --initial")]);
export const unexpand = tabs(["unexpand"], [flag("-a --all"), flag("--first-only")]);
