// jq (1.6): the first operand is the filter unless -f gives a file; the rest are JSON files it
// reads (after --args/--jsonargs, plain strings). Options are exact (no abbreviation) and may
// follow operands. A filter that loads modules (import/include) or prints the environment
// (env, $ENV) is not understood; so is a filter read from a file.
import { pathEffect } from "../parse.ts";
import { flag, opt, type ProgramGrammar } from "../spec.ts";

const ENVIRONMENT =
  /(^|[^A-Za-z0-9_$])(env|\$ENV|\$__prog_args|input_filename|import|include|modulemeta|get_search_list)([^A-Za-z0-9_]|$)/;

/**
 * jq's lexer takes `$` and the name as two tokens, so whitespace or a comment may sit between them:
 * `$ ENV` is `$ENV` (red team, round 6). A spaced `$` is not understood rather than followed.
 */
const SPACED_VARIABLE = /\$[\s#]/;

export const jq: ProgramGrammar = {
  names: ["jq"],
  options: [
    ...[
      "-h --help",
      "--version",
      "-s --slurp",
      "-r --raw-output",
      "-j --join-output",
      "-a --ascii-output",
    ].map((n) => flag(n)),
    ...["-c --compact-output", "-C --color-output", "-M --monochrome-output", "-S --sort-keys"].map((n) =>
      flag(n),
    ),
    ...[
      "-n --null-input",
      "-e --exit-status",
      "--tab",
      "--unbuffered",
      "--stream",
      "--seq",
      "-R --raw-input",
    ].map((n) => flag(n)),
    flag("--args --jsonargs", "args"),
    opt("--indent", "number"),
    opt("-f --from-file", "read", { mode: "filter-file" }),
    opt("-L", "list"),
    opt("--arg --argjson", "string", { second: "string" }),
    opt("--slurpfile --rawfile --argfile", "string", { second: "read" }),
  ],
  permute: true,
  abbreviate: false,
  operands: ["pattern", "read"],
  effect: "read",
  finish(p, out) {
    const file = p.options.find((o) => o.spec.mode === "filter-file");
    if (file !== undefined)
      return {
        word: file.word.raw,
        reason: "jq -f reads a filter from a file, which may print the environment or load modules",
      };
    const [filter, ...files] = p.operands;
    if (filter !== undefined) {
      if (filter.value === null)
        return { word: filter.raw, reason: "the jq filter is only known at run time" };
      if (ENVIRONMENT.test(filter.value) || SPACED_VARIABLE.test(filter.value))
        return {
          word: filter.raw,
          reason: "the jq filter prints the environment or loads modules from files",
        };
    }
    const args = p.options.find((o) => o.spec.mode === "args");
    const argsAt = args === undefined ? Number.POSITIVE_INFINITY : p.argv.indexOf(args.word);
    out.paths = out.paths.filter((e) => !files.includes(e.arg) && e.arg !== filter);
    for (const f of files)
      if (p.argv.indexOf(f) < argsAt && f.value !== "-") out.paths.push(pathEffect("read", f));
    return null;
  },
};
