// sort (GNU coreutils 9.1): reads its operands; -o writes the result, -T writes temporaries into
// a directory, --compress-program runs a program (not understood).
import { raise, unknownRead } from "../effects.ts";
import { flag, GNU_COMMON, opt, optional, type ProgramGrammar } from "../spec.ts";

export const sort: ProgramGrammar = {
  names: ["sort"],
  options: [
    ...GNU_COMMON,
    ...[
      "-b --ignore-leading-blanks",
      "-d --dictionary-order",
      "-f --ignore-case",
      "-g --general-numeric-sort",
    ].map((n) => flag(n)),
    ...["-i --ignore-nonprinting", "-M --month-sort", "-h --human-numeric-sort", "-n --numeric-sort"].map(
      (n) => flag(n),
    ),
    ...["-R --random-sort", "-r --reverse", "-V --version-sort", "-c", "-C", "--debug", "-m --merge"].map(
      (n) => flag(n),
    ),
    ...["-s --stable", "-u --unique", "-z --zero-terminated"].map((n) => flag(n)),
    opt("--random-source", "read"),
    opt("--sort", "string", {
      choices: ["general-numeric", "human-numeric", "month", "numeric", "random", "version"],
    }),
    opt("--batch-size --parallel", "number"),
    optional("--check", "string", ["diagnose-first", "quiet", "silent"]),
    opt("--compress-program", "exec", { mode: "runs" }),
    opt("--files0-from", "read", { mode: "list-of-files" }),
    opt("-k --key -S --buffer-size -t --field-separator"),
    opt("-o --output", "write"),
    opt("-T --temporary-directory", "write"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  finish(p, out) {
    const prog = p.values("runs")[0];
    if (prog !== undefined) return { word: prog.raw, reason: "sort --compress-program runs this program" };
    if (p.has("list-of-files")) unknownRead(out);
    if (out.paths.some((e) => e.access === "write")) raise(out, "write");
    return null;
  },
};
