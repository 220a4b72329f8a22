// pytest (7): imports conftest.py files, plugins and the test modules it collects. Even `--help`, `-h`
// and `-V` import the rootdir's conftest.py (checked with pytest 9), and `--version` did in older ones.
import { responseFileWord } from "../response-files.ts";
import { runner } from "../runner.ts";
import { flag, opt } from "../spec.ts";

export const pytest = runner({
  names: ["pytest", "py.test"],
  options: [
    ...[
      "-q --quiet",
      "-v --verbose",
      "-x --exitfirst",
      "-s",
      "--lf --last-failed",
      "--ff --failed-first",
    ].map((n) => flag(n)),
    ...["--co --collect-only", "--no-header", "-l --showlocals", "--pdb", "--strict-markers"].map((n) =>
      flag(n),
    ),
    opt("-k -m --maxfail --durations -n --numprocesses -p --tb --color --rootdir --basetemp"),
    opt("-c --config-file", "exec"),
    opt("--junitxml --junit-xml", "write"),
  ],
  abbreviate: true,
  helpRuns: true,
  check: responseFileWord,
  definedBy: ["conftest.py", "pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini"],
});
