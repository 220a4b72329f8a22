// shellcheck (0.9.0, GHC's GetOpt: unique prefixes, permuted) reads its operands (`-` is standard input)
// and runs none of them. With -x it also reads every file their `source` lines name, which only the
// scripts know: reads not known here. -a prints the warnings of those files with their lines (a sourced
// secret's lines too, proven on 0.9.0 with external-sources=true in a .shellcheckrc): not understood.
// A .shellcheckrc (found above the script or in the home directory) holds these same settings, -x's among them:
// it is read as a linter configuration (linter-configs.ts).
import { unknownRead } from "../effects.ts";
import { flag, opt, optional, type ProgramGrammar } from "../spec.ts";

export const shellcheck: ProgramGrammar = {
  names: ["shellcheck"],
  options: [
    ...["--help", "-V --version", "--list-optional", "--norc"].map((n) => flag(n)),
    flag("-x --external-sources", "follows"),
    optional("-C --color", "string", ["auto", "always", "never"]),
    opt("-f --format", "string", { choices: ["checkstyle", "diff", "gcc", "json", "json1", "quiet", "tty"] }),
    opt("-S --severity", "string", { choices: ["error", "warning", "info", "style"] }),
    opt("-s --shell", "string", { choices: ["sh", "bash", "dash", "ksh"] }),
    opt("-i --include -e --exclude -o --enable -P --source-path"),
    opt("-W --wiki-link-count", "number"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  finish(p, out) {
    if (p.has("follows")) unknownRead(out);
    return null;
  },
};
