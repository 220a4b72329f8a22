// man (man-db 2.11.2, getopt_long: unique prefixes, permuted): formats the manual pages its operands name,
// found by name in the manual path, and prints them. An agent's shell gives it no terminal, and with its
// output not a terminal man pipes the page to its output, running no pager (MANPAGER/PAGER in the command
// ask as the variables they are, env-vars.ts). A page is groff input whose `.so` includes any other file
// (`.so /etc/hostname` printed it, man-db 2.11.2): so a name with a slash, which man reads as a file of the
// page's own (`man ./x.1`), and -l are not understood, and where the manual path leads is the disk's to
// see (guards/man-path.ts). Kept out too: what runs a program or moves the search (`-P` pager, `-p`
// preprocessors, `-H` browser, `-t`/`-T`/`-Z`/`-X` troff output, `-C` config, `-M`/`-m` paths, `-R`, `-u`).
import { flag, GNU_COMMON, opt, optional, type ProgramGrammar } from "../spec.ts";

export const man: ProgramGrammar = {
  names: ["man"],
  options: [
    ...GNU_COMMON,
    ...["-h", "--usage", "-V", "-a --all", "-f --whatis", "-k --apropos", "-K --global-apropos"].map((n) =>
      flag(n),
    ),
    ...[
      "-w --where --path --location",
      "-W --where-cat --location-cat",
      "-i --ignore-case",
      "-I --match-case",
    ].map((n) => flag(n)),
    ...[
      "--regex",
      "--wildcard",
      "--names-only",
      "--no-subpages",
      "-7 --ascii",
      "-d --debug",
      "-D --default",
    ].map((n) => flag(n)),
    ...["--no-hyphenation --nh", "--no-justification --nj"].map((n) => flag(n)),
    opt("-S -s --sections -e --extension -L --locale -E --encoding"),
    optional("--warnings"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["string"],
  effect: "read",
  finish(p) {
    const file = p.operands.find((a) => a.value === null || a.value.includes("/"));
    if (file === undefined) return null;
    return {
      word: file.raw,
      reason:
        file.value === null
          ? "a manual page named only at run time may be a file"
          : "man reads a name with a slash as a page file, whose `.so` requests include any other file",
    };
  },
};
