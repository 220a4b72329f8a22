// locale (glibc 2.36, argp: GNU getopt_long, unique prefixes, permuted): prints the current locale, the
// installed locales (`-a`), or the values of the categories and keywords its operands name: names, never
// files. `-m`/`--charmaps` runs gzip or bzip2 (found on PATH) to list compressed charmaps: not understood.
// argp's `-?` (a glob to bash) and hidden options are not modelled. LOCPATH and LC_* set by the command
// are judged as the variables they are (env-vars.ts).
import { flag, type ProgramGrammar } from "../spec.ts";

export const locale: ProgramGrammar = {
  names: ["locale"],
  options: [
    ...["-a --all-locales", "-c --category-name", "-k --keyword-name", "-v --verbose"].map((n) => flag(n)),
    ...["--help", "--usage", "-V --version"].map((n) => flag(n)),
    flag("-m --charmaps", "runs"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["string"],
  effect: "read",
  finish(p) {
    const runs = p.options.find((o) => o.spec.mode === "runs");
    return runs === undefined
      ? null
      : { word: runs.word.raw, reason: "locale -m runs gzip or bzip2 from PATH to read compressed charmaps" };
  },
};
