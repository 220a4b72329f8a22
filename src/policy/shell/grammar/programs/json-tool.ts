// `python3 -m json.tool` (3.11-3.13, argparse: unique prefixes of long options): validates and prints
// JSON from the file it names (standard input without one, or `-`) to the second file it names, which it
// writes (standard output without one). Reached as the module `-m` runs (python.ts); which file python
// imports for `json` is the disk's to see (python-path.ts).
import { flag, opt, type ProgramGrammar } from "../spec.ts";

export const jsonTool: ProgramGrammar = {
  names: ["json.tool"],
  options: [
    ...[
      "-h --help",
      "--sort-keys",
      "--no-ensure-ascii",
      "--json-lines",
      "--tab",
      "--no-indent",
      "--compact",
    ].map((n) => flag(n)),
    opt("--indent", "number"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read", "write"],
  effect: "read",
  finish(p, out) {
    const written = p.operands[1];
    if (p.operands.length > 2)
      return { word: p.operands[2]?.raw ?? "", reason: "json.tool takes two files at most" };
    if (written !== undefined && written.value !== "-") out.effect = "write";
    out.paths = out.paths.filter((e) => e.arg.value !== "-");
    return null;
  },
  // It reads the one file and writes the other; python's start-up (site, PYTHONPATH, a venv) is the disk's.
  placedOnly: () => true,
};
