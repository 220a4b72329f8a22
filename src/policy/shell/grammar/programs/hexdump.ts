// hexdump and hd (util-linux 2.38; hd is `hexdump -C`): dump their operands (standard input when none).
// `-f`/`--format-file` names a file of format strings it reads (and prints in its error for a bad one):
// a read like an operand. `-e` is a format string, `-n`/`-s` sizes with suffixes, `-L` a color mode.
// Unlike coreutils, hexdump opens `-` as a file of that name (freopen), not standard input.
import { pathEffect } from "../parse.ts";
import { flag, opt, optional, type ProgramGrammar } from "../spec.ts";

export const hexdump: ProgramGrammar = {
  names: ["hexdump", "hd"],
  options: [
    ...["-b --one-byte-octal", "-c --one-byte-char", "-C --canonical", "-d --two-bytes-decimal"].map((n) =>
      flag(n),
    ),
    ...["-o --two-bytes-octal", "-x --two-bytes-hex", "-v --no-squeezing", "-h --help", "-V --version"].map(
      (n) => flag(n),
    ),
    optional("-L --color", "string", ["auto", "never", "always"]),
    opt("-e --format -n --length -s --skip"),
    opt("-f --format-file", "read"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  finish(p, out) {
    const files = [...p.values("-f"), ...p.operands];
    for (const a of files) if (a.value === "-") out.paths.push(pathEffect("read", a));
    return null;
  },
};
