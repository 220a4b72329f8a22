// Standard-library modules that print what they read (python 3.11): `python3 -m tokenize FILE` (its
// tokens), `-m ast FILE` (its syntax tree, parsed, never run), `-m base64 -e FILE` (getopt "deut": encode,
// decode, the old encoding, a self-test on a fixed string; only the first operand is read), `-m venv --help`
// (argparse prints usage and exits at -h) and `-m site [--user-base] [--user-site]` (the paths python
// searches). Named `python -m NAME`, so a program on PATH called `ast` or `tokenize` is not taken for one;
// which file python imports is the disk's (python-path.ts).
import { noOperand } from "../effects.ts";
import { flag, opt, type ProgramGrammar } from "../spec.ts";

const oneFile =
  (module: string): ProgramGrammar["finish"] =>
  (p) =>
    p.operands.length > 1 ? { word: p.operands[1]?.raw ?? "", reason: `${module} reads one file` } : null;

const tokenize: ProgramGrammar = {
  names: ["python -m tokenize"],
  options: [flag("-h --help"), flag("-e --exact")],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  finish: oneFile("tokenize"),
};

const ast: ProgramGrammar = {
  names: ["python -m ast"],
  options: [
    ...["-h --help", "--no-type-comments", "-a --include-attributes"].map((n) => flag(n)),
    opt("-m --mode", "string", { choices: ["exec", "single", "eval", "func_type"] }),
    opt("-i --indent", "number"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  finish: oneFile("ast"),
};

const base64: ProgramGrammar = {
  names: ["python -m base64"],
  options: ["-e", "-d", "-u", "-t"].map((n) => flag(n)),
  permute: false,
  abbreviate: false,
  operands: ["read"],
  effect: "read",
  finish: oneFile("base64"),
};

const venv: ProgramGrammar = {
  names: ["python -m venv"],
  options: [flag("-h --help")],
  permute: false,
  abbreviate: false,
  operands: [],
  effect: "read",
  // Without the help it creates an environment (and runs ensurepip).
  finish: (p) =>
    p.has("-h") && p.operands.length === 0
      ? null
      : { word: p.operands[0]?.raw ?? "venv", reason: "venv creates an environment" },
};

/**
 * site's own script (site.py `_script`): no word prints sys.path and the user site's paths; `--user-base`
 * and `--user-site` print those paths. It looks at each argument whole (`in sys.argv`), and any other word
 * prints its usage: refused here, as words it does not place.
 */
const site: ProgramGrammar = {
  names: ["python -m site"],
  options: [flag("--user-base"), flag("--user-site")],
  permute: true,
  abbreviate: false,
  operands: [],
  effect: "read",
  finish: (p) => noOperand(p, "site takes no operand"),
};

/** The modules by the name `-m` gives them. */
export const PRINTING_MODULES: ReadonlyMap<string, ProgramGrammar> = new Map(
  [tokenize, ast, base64, venv, site].map((g) => [g.names[0]?.slice("python -m ".length) ?? "", g]),
);
