// date (GNU coreutils 9.1): prints the time; -f reads dates from a file, -r stats a file, -s
// and an operand not starting with `+` set the system clock (not understood).
import { flag, GNU_COMMON, opt, optional, type ProgramGrammar } from "../spec.ts";

const ISO = ["date", "hours", "minutes", "seconds", "ns"];

export const date: ProgramGrammar = {
  names: ["date"],
  options: [
    ...GNU_COMMON,
    opt("-d --date"),
    flag("--debug"),
    opt("-f --file", "read"),
    optional("-I --iso-8601", "string", ISO),
    flag("--resolution"),
    flag("-R --rfc-email"),
    opt("--rfc-3339", "string", { choices: ["date", "seconds", "ns"] }),
    opt("-r --reference", "list"),
    opt("-s --set", "string", { mode: "set" }),
    flag("-u --utc --universal"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["string"],
  effect: "read",
  finish(p) {
    const set = p.options.find((o) => o.spec.mode === "set");
    if (set !== undefined) return { word: set.word.raw, reason: "date --set sets the system clock" };
    const clock = p.operands.find((o) => !(o.value ?? "").startsWith("+"));
    if (clock !== undefined)
      return { word: clock.raw, reason: "an operand not starting with + sets the system clock" };
    return null;
  },
};
