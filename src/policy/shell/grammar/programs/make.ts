// make (GNU make 4.3): runs the recipes of its targets (any command the Makefile holds). -f names
// the makefile, -C moves first; VAR=value operands override variables. Options by unique prefix.
import { runner } from "../runner.ts";
import { flag, opt, optional } from "../spec.ts";

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
    opt("-o --old-file --assume-old -W --what-if --new-file --assume-new --eval"),
  ],
  abbreviate: true,
  definedBy: ["Makefile", "makefile", "GNUmakefile"],
});
