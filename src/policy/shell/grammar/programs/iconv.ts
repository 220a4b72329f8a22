// iconv (glibc 2.36, argp: GNU getopt_long, unique prefixes, permuted): converts its operands' text
// (standard input when none, `-` too) between the encodings -f and -t name, to standard output or to the
// file -o names (written after every input is read). Encoding names are looked up in glibc's own module
// list, never opened as paths; GCONV_PATH set by the command is judged as the variable it is (env-vars.ts).
// argp's `-?` (a glob to bash) and hidden options are not modelled.
import { raise } from "../effects.ts";
import { flag, opt, type ProgramGrammar } from "../spec.ts";

export const iconv: ProgramGrammar = {
  names: ["iconv"],
  options: [
    ...["-l --list", "-c", "-s --silent", "--verbose", "--help", "--usage", "-V --version"].map((n) =>
      flag(n),
    ),
    opt("-f --from-code -t --to-code"),
    opt("-o --output", "write"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  finish(_, out) {
    if (out.paths.some((e) => e.access === "write")) raise(out, "write");
    return null;
  },
};
