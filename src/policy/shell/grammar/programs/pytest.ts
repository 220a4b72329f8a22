// pytest (7): imports conftest.py files, plugins and the test modules it collects. Even `--help`, `-h`
// and `-V` import the rootdir's conftest.py (checked with pytest 9), and `--version` did in older ones.
import { responseFileWord } from "../response-files.ts";
import { runner } from "../runner.ts";
import { flag, type NotUnderstood, opt, type Parsed } from "../spec.ts";

/**
 * pytest empties the `--basetemp` directory before the run (`tmp_path`'s root: the red team's `--basetemp=src`
 * deleted the sources, round 22, r22-07), so any directory named there is destroyed: not understood.
 */
function basetempOrResponseFile(p: Parsed): NotUnderstood | null {
  const basetemp = p.options.find((o) => o.spec.mode === "empties");
  if (basetemp !== undefined)
    return {
      word: basetemp.word.raw,
      reason: "pytest deletes what is in the --basetemp directory before it runs",
    };
  return responseFileWord(p);
}

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
    opt("-k -m --maxfail --durations -n --numprocesses -p --tb --color --rootdir"),
    opt("--basetemp", "string", { mode: "empties" }),
    opt("-c --config-file", "exec"),
    opt("--junitxml --junit-xml", "write"),
  ],
  abbreviate: true,
  helpRuns: true,
  check: basetempOrResponseFile,
  definedBy: ["conftest.py", "pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini"],
});
