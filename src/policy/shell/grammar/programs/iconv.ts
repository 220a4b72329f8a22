// iconv (glibc 2.36, argp: GNU getopt_long, unique prefixes, permuted): converts its operands' text
// (standard input when none, `-` too) between the encodings -f and -t name, to standard output or to the
// file -o names (written after every input is read). An encoding name without a slash is looked up in
// glibc's own module list; one with a slash is a charmap FILE (POSIX; iconv_prog's charmap_read), opened
// as written, relative to where it runs, `//TRANSLIT` suffix and all (strace; red team, round 16: `-f
// ~/.netrc` read the secret and quoted its lines). GCONV_PATH set by the command is judged as the
// variable it is (env-vars.ts). argp's `-?` (a glob to bash) and hidden options are not modelled.

import type { Arg } from "../../wrappers.ts";
import { raise } from "../effects.ts";
import { pathEffect } from "../parse.ts";
import { flag, opt, type ProgramGrammar } from "../spec.ts";

/** A name iconv opens as a charmap file: any with a slash, `~` (bash makes it a path), or one only known at run time. */
function charmapFile(a: Arg): boolean {
  return a.value === null || a.value.includes("/") || a.tilde;
}

export const iconv: ProgramGrammar = {
  names: ["iconv"],
  options: [
    ...["-l --list", "-c", "-s --silent", "--verbose", "--help", "--usage", "-V --version"].map((n) =>
      flag(n),
    ),
    opt("-f --from-code -t --to-code", "string", { mode: "encoding" }),
    opt("-o --output", "write"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  finish(p, out) {
    for (const name of p.values("encoding")) if (charmapFile(name)) out.paths.push(pathEffect("read", name));
    if (out.paths.some((e) => e.access === "write")) raise(out, "write");
    return null;
  },
};
