// mktemp (GNU coreutils 9.1) with no template: it creates a new, empty, private file or directory under
// $TMPDIR (or /tmp) with a name no file had, so it can change nothing that was there. A template or -p, -t
// or --tmpdir place it somewhere this grammar does not judge.
import { flag, GNU_COMMON, type ProgramGrammar } from "../spec.ts";

export const mktemp: ProgramGrammar = {
  names: ["mktemp"],
  options: [...GNU_COMMON, ...["-d --directory", "-u --dry-run", "-q --quiet"].map((n) => flag(n))],
  permute: true,
  abbreviate: true,
  operands: [],
  effect: "read",
  finish: (p) =>
    p.operands[0] === undefined
      ? null
      : { word: p.operands[0].raw, reason: "mktemp with a template writes where it says" },
};
