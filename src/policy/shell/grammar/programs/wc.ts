// wc (GNU coreutils 9.1): reads its operands; --files0-from reads a list of files to read.
import { unknownRead } from "../effects.ts";
import { flag, GNU_COMMON, opt, type ProgramGrammar } from "../spec.ts";

export const wc: ProgramGrammar = {
  names: ["wc"],
  options: [
    ...GNU_COMMON,
    ...["-c --bytes", "-m --chars", "-l --lines", "-L --max-line-length", "-w --words"].map((n) => flag(n)),
    opt("--files0-from", "read", { mode: "list-of-files" }),
    opt("--total", "string", { choices: ["auto", "always", "only", "never"] }),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  finish(p, out) {
    // The files named inside the list are read too: not known before it runs.
    if (p.has("list-of-files")) unknownRead(out);
    return null;
  },
};
