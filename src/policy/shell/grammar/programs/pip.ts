// pip (23.2; `pip <command> --help`): `pip [general options] <command> [options]`, parsed by optparse
// (clusters, `--opt=value`, unique prefixes of long options, general options after the command too).
// `list`, `show`, `freeze` and `check` read the installed distributions' metadata and print it; they run no code of
// theirs (`freeze` runs `git rev-parse`/`git config` read-only in an editable install's checkout). `list`
// asks the index, at most once a week, whether pip itself is outdated (unless
// --disable-pip-version-check): a fixed request with nothing of the project's. Every option that reaches
// an index the command names (`-o`, `-u`, `-i`, `--proxy`), writes (`--log`, `--cache-dir`), reads a file
// (`freeze -r`, `--cert`) or runs another interpreter (`--python`) is not understood; so is every other
// command. Which python runs pip, and what its start-up loads, is the disk's to see (python-path.ts).
import type { Arg } from "../../wrappers.ts";
import { emptyEffects, understand } from "../parse.ts";
import type { OptionSpec, ProgramGrammar, Understanding } from "../spec.ts";
import { flag, opt } from "../spec.ts";

/** pip's general options that change nothing but what it prints or whether it asks. */
const GENERAL: readonly OptionSpec[] = [
  ...["-h --help", "-v --verbose", "-q --quiet", "-V --version", "--isolated", "--no-input"].map((n) =>
    flag(n),
  ),
  ...["--disable-pip-version-check", "--no-color", "--no-python-version-warning", "--require-virtualenv"].map(
    (n) => flag(n),
  ),
  flag("--no-cache-dir"),
];

const command = (options: readonly OptionSpec[], operands: ProgramGrammar["operands"]): ProgramGrammar => ({
  names: ["pip"],
  options: [...GENERAL, ...options],
  permute: true,
  abbreviate: true,
  operands,
  effect: "read",
});

/** Where installed distributions are looked for: the path's entries are listed. */
const SELECT = [
  flag("-l --local"),
  flag("--user"),
  opt("--path", "list"),
  flag("--exclude-editable"),
  opt("--exclude"),
];

const COMMANDS: Readonly<Record<string, ProgramGrammar>> = {
  list: command(
    [
      ...SELECT,
      ...["-e --editable", "--include-editable", "--not-required"].map((n) => flag(n)),
      opt("--format", "string", { choices: ["columns", "freeze", "json"] }),
    ],
    ["string"],
  ),
  show: command([flag("-f --files")], ["string"]),
  freeze: command([...SELECT, flag("--all")], ["string"]),
  // Checks the installed distributions' requirements against each other: their metadata only.
  check: command([], []),
};

function judgePip(argv: readonly Arg[]): Understanding {
  const out = emptyEffects("read");
  // General options before the command: only the flags above, as written.
  let i = 1;
  const general = new Set(GENERAL.flatMap((o) => o.names));
  while (i < argv.length && general.has(argv[i]?.value ?? "")) i++;
  const sub = argv[i];
  if (sub === undefined) return { understood: true, effects: out }; // usage, or --version
  if (sub.value === null)
    return {
      understood: false,
      why: { word: sub.raw, reason: "the pip command is only known at run time" },
      effects: out,
    };
  if (!Object.hasOwn(COMMANDS, sub.value))
    return {
      understood: false,
      why: {
        word: sub.raw,
        reason: `pip ${sub.value} is not a pip command this engine understands (it may install, download, write or run)`,
      },
      effects: out,
    };
  return understand(COMMANDS[sub.value] as ProgramGrammar, argv, i + 1);
}

export const pip: ProgramGrammar = {
  names: ["pip", "pip3", "pip3.11", "pip3.12", "pip3.13"],
  options: [],
  permute: false,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  custom: judgePip,
};
