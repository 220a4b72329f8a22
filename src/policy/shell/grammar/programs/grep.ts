// grep (GNU grep 3.8): the first operand is the pattern unless -e/-f give it; the rest are read.
// -r, -R, `-d recurse` and `--directories=recurse` (any unique prefix: `--recurs`, `-d rec`)
// read every file below each operand (`.` when none), -R following every symlink.
import { DOT, listOrWalk } from "../effects.ts";
import { COLOR_WHEN, flag, GNU_COMMON, opt, optional, type ProgramGrammar } from "../spec.ts";

const CONTEXT = opt("-C --context", "number");

export const grep: ProgramGrammar = {
  names: ["grep", "egrep", "fgrep"],
  options: [
    ...GNU_COMMON,
    flag("-V"),
    ...["-E --extended-regexp", "-F --fixed-strings", "-G --basic-regexp", "-P --perl-regexp"].map((n) =>
      flag(n),
    ),
    opt("-e --regexp", "pattern", { mode: "pattern" }),
    opt("-f --file", "read", { mode: "pattern" }),
    ...[
      "-i -y --ignore-case",
      "--no-ignore-case",
      "-w --word-regexp",
      "-x --line-regexp",
      "-z --null-data",
    ].map((n) => flag(n)),
    ...[
      "-s --no-messages",
      "-v --invert-match",
      "-b --byte-offset",
      "-n --line-number",
      "--line-buffered",
    ].map((n) => flag(n)),
    ...[
      "-H --with-filename",
      "-h --no-filename",
      "-o --only-matching",
      "-q --quiet --silent",
      "-a --text",
      "-I",
    ].map((n) => flag(n)),
    ...[
      "-L --files-without-match",
      "-l --files-with-matches",
      "-c --count",
      "-T --initial-tab",
      "-Z --null",
    ].map((n) => flag(n)),
    ...["--no-group-separator", "-U --binary"].map((n) => flag(n)),
    opt("-m --max-count -A --after-context -B --before-context", "number"),
    CONTEXT,
    opt("--label --group-separator"),
    opt("--binary-files", "string", { choices: ["binary", "text", "without-match"] }),
    opt("-d --directories", "string", { choices: ["read", "skip", "recurse"], mode: "directories" }),
    opt("-D --devices", "string", { choices: ["read", "skip"] }),
    flag("-r --recursive", "recursive"),
    flag("-R --dereference-recursive", "follow"),
    opt("--include --exclude --exclude-dir", "pattern"),
    opt("--exclude-from", "read"),
    optional("--color --colour", "string", COLOR_WHEN),
  ],
  numeric: CONTEXT,
  permute: true,
  abbreviate: true,
  operands: ["pattern", "read"],
  effect: "read",
  finish(p, out) {
    const files = p.has("pattern") ? p.operands : p.operands.slice(1);
    const dirs = p.values("directories").map((v) => v.value);
    // The last of -r, -R and -d wins in grep; any of them asking to recurse is judged as recursing.
    const recursive = p.has("recursive") || p.has("follow") || dirs.includes("recurse");
    listOrWalk(
      p,
      out,
      { recursive, follow: p.has("follow") ? "all" : "args", dflt: recursive ? DOT : null, contents: true },
      files,
    );
    for (const e of out.paths) if (e.access === "walk") e.contents = true;
    return null;
  },
};
