// df (GNU coreutils 9.1): the usage of the file systems holding its operands (every mounted one when
// none). An operand is looked up (stat, and opened to trigger an automount), never read: a `list`.
import { flag, GNU_COMMON, opt, optional, type ProgramGrammar } from "../spec.ts";

export const df: ProgramGrammar = {
  names: ["df"],
  options: [
    ...GNU_COMMON,
    ...["-a --all", "--direct", "-h --human-readable", "-H --si", "-i --inodes", "-k", "-l --local"].map(
      (n) => flag(n),
    ),
    ...["--no-sync", "--sync", "-P --portability", "--total", "-T --print-type", "-v"].map((n) => flag(n)),
    opt("-B --block-size -t --type -x --exclude-type"),
    optional("--output"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["list"],
  effect: "read",
};
