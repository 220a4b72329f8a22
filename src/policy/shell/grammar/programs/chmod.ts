// chmod (GNU coreutils 9.1): sets the mode bits of the files it is given, changing nothing else; the
// first operand is the mode, the rest are the files, each judged as a write of that file.

import { raise } from "../effects.ts";
import { flag, GNU_COMMON, type Parsed, type ProgramGrammar } from "../spec.ts";

/**
 * A mode whose every bit is read, write or execute: octal (no setuid, setgid or sticky digit) or
 * symbolic clauses (`+x`, `u=rw,go=r`, `a-w`). `s` and `t` make a file run as its owner or pin a
 * directory's names; a mode other than these is not placed.
 */
const PLAIN_MODE = /^(0*[0-7]{1,3}|[ugoa]*([-+=]([rwxX]*|[ugo]))+(,[ugoa]*([-+=]([rwxX]*|[ugo]))+)*)$/;

export const chmod: ProgramGrammar = {
  names: ["chmod"],
  options: [
    ...GNU_COMMON,
    ...["-c --changes", "-f --silent --quiet", "-v --verbose", "--preserve-root"].map((n) => flag(n)),
    flag("--no-preserve-root"),
    flag("-R --recursive", "recursive"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["string", "write"],
  effect: "write",
  finish: (p, out) => {
    const [mode, ...files] = p.operands;
    if (mode === undefined || files.length === 0)
      return { word: p.program, reason: "chmod needs a mode and a file" };
    if (mode.value === null || !PLAIN_MODE.test(mode.value))
      return {
        word: mode.raw,
        reason: "a mode other than read, write and execute bits (setuid, setgid, sticky, or not known here)",
      };
    if (p.has("recursive")) for (const e of out.paths) e.below = true;
    raise(out, "write");
    return null;
  },
  // A mode change is all it does to each file; -R walks every file below, which its paths do not list.
  placedOnly: (p: Parsed) => !p.has("recursive"),
};
