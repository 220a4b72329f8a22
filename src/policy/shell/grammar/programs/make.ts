// make (GNU make 4.3): runs the recipes of its targets (any command the Makefile holds). -f names
// the makefile, -C moves first; VAR=value operands override variables. Options by unique prefix.
// What the command line adds to the Makefile is not the project's (red team, round 22): `--eval` is make
// code (`$(shell …)` printed ~/.netrc, r22-05), and an override can pick the program a recipe runs
// (`SHELL=/outside/prog`, `CC=/outside/cc`, r22-06). An override is understood when its value is a plain word
// (`V=1`, `CC=clang`, `BUILD=release`): no path, no `$` reference, no `!=` shell assignment, and not SHELL or
// the variables that load more makefiles or options.
import { runner } from "../runner.ts";
import { flag, type NotUnderstood, opt, optional, type Parsed } from "../spec.ts";

const OVERRIDE = /^([A-Za-z_][\w.-]*)\s*(::?=|:::=|\+=|\?=|!=|=)(.*)$/s;
const LOADERS = new Set([
  "SHELL",
  "MAKESHELL",
  ".SHELLFLAGS",
  "MAKEFLAGS",
  "MFLAGS",
  "MAKEFILES",
  "MAKEFILE_LIST",
  "MAKE",
]);

function commandLineMake(p: Parsed): NotUnderstood | null {
  const evaluated = p.options.find((o) => o.spec.mode === "runs");
  if (evaluated !== undefined)
    return {
      word: evaluated.word.raw,
      reason: "make --eval runs make code the command line wrote, not the project's",
    };
  for (const a of p.operands) {
    const m = a.value === null ? null : OVERRIDE.exec(a.value);
    if (a.value === null && /=/.test(a.raw))
      return {
        word: a.raw,
        reason: "a make override only known at run time may pick the program a recipe runs",
      };
    if (m === null) continue;
    const [, name, op, value] = m as unknown as [string, string, string, string];
    if (op === "!=" || LOADERS.has(name) || !/^[\w.,:+@%-]*$/.test(value))
      return { word: a.raw, reason: `the override ${name}${op}… may pick the program or the code make runs` };
  }
  return null;
}

export const make = runner({
  names: ["make", "gmake"],
  options: [
    ...["-B --always-make", "-d", "-e --environment-overrides", "-i --ignore-errors", "-k --keep-going"].map(
      (n) => flag(n),
    ),
    ...[
      "-n --just-print --dry-run --recon",
      "-q --question",
      "-r --no-builtin-rules",
      "-R --no-builtin-variables",
    ].map((n) => flag(n)),
    ...[
      "-s --silent --quiet",
      "-S --no-keep-going --stop",
      "-t --touch",
      "-w --print-directory",
      "--no-print-directory",
    ].map((n) => flag(n)),
    ...["-v", "-p --print-data-base", "--warn-undefined-variables", "-L --check-symlink-times"].map((n) =>
      flag(n),
    ),
    optional("-j --jobs -l --load-average --output-sync -O --debug", "number"),
    opt("-f --file --makefile", "exec"),
    opt("-C --directory", "list", { mode: "chdir" }),
    opt("-I --include-dir", "list"),
    opt("-o --old-file --assume-old -W --what-if --new-file --assume-new"),
    opt("--eval", "string", { mode: "runs" }),
  ],
  abbreviate: true,
  check: commandLineMake,
  definedBy: ["Makefile", "makefile", "GNUmakefile"],
});
