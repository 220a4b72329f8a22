// uuidgen (util-linux 2.38, getopt_long): prints a new UUID made from random bytes or from a namespace and
// a name (md5, sha1), reading no file (strace). `-t` makes a time-based one: libuuid asks the uuidd socket
// and otherwise opens /var/lib/libuuid/clock.txt read-write, a system file it keeps its clock in — not
// understood. It ignores operands; they are refused here, as words it does not place.
import { noOperand } from "../effects.ts";
import { flag, opt, type ProgramGrammar } from "../spec.ts";

export const uuidgen: ProgramGrammar = {
  names: ["uuidgen"],
  options: [
    ...["-r --random", "-m --md5", "-s --sha1", "-x --hex", "-h --help", "-V --version"].map((n) => flag(n)),
    flag("-t --time", "clock"),
    opt("-n --namespace -N --name"),
  ],
  permute: true,
  abbreviate: true,
  operands: [],
  effect: "read",
  finish(p) {
    const clock = p.options.find((o) => o.spec.mode === "clock");
    if (clock !== undefined)
      return {
        word: clock.word.raw,
        reason: "uuidgen -t keeps its clock in a system file it writes (or asks uuidd)",
      };
    return noOperand(p, "uuidgen takes no operand");
  },
};
