// ruff (clap: exact long options, no abbreviation) in its check forms: `ruff check` reports violations
// (with the offending source lines) and `ruff format --check`/`--diff` reports formatting, of the files
// and directories it names (`.` by default), walked. ruff loads no plugins and runs no project code; what
// its configuration files name (`extend`, `cache-dir`, nested configs) is guards/linter-configs.ts's to
// look at. Its cache (.ruff_cache) is written in the project. Options that write (--fix, --fix-only,
// --add-noqa, -o, --cache-dir, --watch), take a configuration (--config: a file or inline TOML) or
// standard input's name, and a `ruff format` without --check/--diff are not understood: they ask.
import { DOT, listOrWalk } from "../effects.ts";
import { flag, opt, type ProgramGrammar } from "../spec.ts";

/** The two subcommands read-only here, and `version`. */
const SUBCOMMANDS = new Set(["check", "format", "version"]);

export const ruff: ProgramGrammar = {
  names: ["ruff"],
  options: [
    ...["-h --help", "-V --version", "-q --quiet", "-v --verbose", "-s --silent"].map((n) => flag(n)),
    ...["--no-fix", "--diff", "--check", "--statistics", "--ignore-noqa", "-e --exit-zero"].map((n) =>
      flag(n),
    ),
    ...["--preview", "--no-preview", "-n --no-cache", "--isolated"].map((n) => flag(n)),
    ...["--respect-gitignore", "--no-respect-gitignore", "--force-exclude", "--no-force-exclude"].map((n) =>
      flag(n),
    ),
    opt("--output-format", "string", {
      choices: [
        "concise",
        "full",
        "json",
        "json-lines",
        "junit",
        "grouped",
        "github",
        "gitlab",
        "pylint",
        "rdjson",
        "azure",
        "sarif",
      ],
    }),
    opt("--target-version", "string", {
      choices: ["py37", "py38", "py39", "py310", "py311", "py312", "py313", "py314"],
    }),
    opt("--select --ignore --extend-select --extend-ignore --per-file-ignores --extend-per-file-ignores"),
    opt("--exclude --extend-exclude --line-length"),
  ],
  permute: true,
  abbreviate: false,
  operands: ["string"],
  effect: "read",
  finish(p, out) {
    const [sub, ...files] = p.operands;
    if (sub === undefined) {
      const onlyVersion =
        p.options.length > 0 && p.options.every((o) => /^(-h|--help|-V|--version)$/.test(o.name));
      return onlyVersion
        ? null
        : { word: "ruff", reason: "ruff without a subcommand is not understood here" };
    }
    if (!SUBCOMMANDS.has(sub.value ?? ""))
      return { word: sub.raw, reason: `ruff ${sub.raw} is not a form understood here` };
    if (sub.value === "version")
      return files.length === 0 ? null : { word: sub.raw, reason: "ruff version takes no operand" };
    if (sub.value === "format" && !p.has("--check") && !p.has("--diff"))
      return { word: sub.raw, reason: "ruff format without --check or --diff rewrites the files" };
    if (sub.value === "check" && p.has("--check"))
      return { word: "--check", reason: "ruff check has no --check option" };
    listOrWalk(p, out, { recursive: true, follow: "all", dflt: DOT, contents: true }, files);
    return null;
  },
};
