// yamllint (yamllint/cli.py; argparse: unique prefixes of long options, clustered short ones) reads the
// YAML files it names and those below the directories it names (os.walk: links to directories not
// entered), `-` standard input; it prints each problem with the words it is about (a duplicated key).
// It starts as pip does, from its console script (python.ts pythonStart), and its configuration is
// guards/linter-configs.ts's. `-c`/`--config-file` and `-d`/`--config-data` (YAML whose `extends` may
// name a file) are not understood.
import { listOrWalk } from "../effects.ts";
import { flag, opt, type ProgramGrammar } from "../spec.ts";

export const yamllint: ProgramGrammar = {
  names: ["yamllint"],
  options: [
    ...[
      "-h --help",
      "-v --version",
      "-s --strict",
      "--no-warnings",
      "--list-files",
      "--continue-on-error",
    ].map((n) => flag(n)),
    opt("-f --format", "string", { choices: ["parsable", "standard", "colored", "github", "auto"] }),
    opt("-p --processes", "number"),
  ],
  permute: true,
  abbreviate: true,
  operands: ["walk"],
  effect: "read",
  finish(p, out) {
    listOrWalk(p, out, { recursive: true, follow: "args", dflt: null, contents: true });
    return null;
  },
};
