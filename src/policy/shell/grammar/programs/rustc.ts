// rustc (1.63+), only the forms that print about the compiler itself: `rustc --version` (`-V`, with
// `-v`/`--verbose` the build details) and `--help`. Compiling a file (any operand, any other option:
// `--out-dir`, `-o`, `--extern`, `-C linker=`) is not understood. Rust's getopts: no abbreviations.
import { flag, type ProgramGrammar } from "../spec.ts";

export const rustc: ProgramGrammar = {
  names: ["rustc"],
  options: [flag("-V --version", "version"), flag("-v --verbose"), flag("-h --help", "help")],
  permute: true,
  abbreviate: false,
  operands: ["read"],
  effect: "read",
  finish(p) {
    const first = p.operands[0];
    if (first !== undefined)
      return { word: first.raw, reason: "rustc FILE compiles it (and writes its output)" };
    if (!p.has("version") && !p.has("help"))
      return { word: "rustc", reason: "rustc without --version or --help reads a crate from standard input" };
    return null;
  },
};
