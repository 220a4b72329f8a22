// Programs that run code the project defines (npm scripts, Makefiles, test files, configs that
// are code): one shape for their grammars. Their effect is "runs project code", never read-only;
// `definedBy` names the files that decide what runs (for grants that ask again when they change).
// Only `--version`/`--help` forms run nothing of the project's.
import type { Effects, NotUnderstood, OptionSpec, Parsed, ProgramGrammar } from "./spec.ts";
import { flag } from "./spec.ts";

export interface RunnerSpec {
  names: readonly string[];
  options: readonly OptionSpec[];
  /** Subcommands it understands (first operand), each: does it run project code? Absent: no subcommands. */
  subcommands?: Readonly<Record<string, boolean>>;
  /** The files (relative to where it runs) that define what runs. */
  definedBy: readonly string[];
  /** Options are exact (no getopt_long abbreviation), as most non-GNU CLIs parse them. */
  abbreviate?: boolean;
  permute?: boolean;
  singleDash?: boolean;
  /**
   * Its `--help`/`--version` forms load project code too (pytest imports conftest.py to list the options
   * it adds, and plugins: red team, round 8), so they run what the project defines like any other form.
   */
  helpRuns?: true;
  /** Extra checks on the parsed words (a script operand it executes, a forbidden form). */
  check?: (p: Parsed, out: Effects) => NotUnderstood | null;
  /** A form that runs nothing the project defines (`python3 -m json.tool`: a module of its own, judged as a command). */
  runsNothingOfTheProject?: (p: Parsed) => boolean;
}

const VERSION_ONLY = new Set(["--version", "-v", "-V", "--help", "-h", "version", "help"]);

export function runner(spec: RunnerSpec): ProgramGrammar {
  return {
    names: spec.names,
    options: [flag("--help -h"), flag("--version"), ...spec.options],
    permute: spec.permute ?? true,
    abbreviate: spec.abbreviate ?? false,
    ...(spec.singleDash === true ? { singleDash: true } : {}),
    operands: ["string"],
    effect: "run",
    finish(p, out) {
      const first = p.operands[0];
      let runs = true;
      if (spec.subcommands !== undefined && first !== undefined) {
        const v = first.value ?? "";
        if (!Object.hasOwn(spec.subcommands, v))
          return {
            word: first.raw,
            reason: `${spec.names[0]} ${v} is not a subcommand this engine understands`,
          };
        runs = spec.subcommands[v] === true;
      }
      const refused = spec.check?.(p, out) ?? null;
      if (refused !== null) return refused;
      const onlyVersion =
        p.options.length > 0 && p.options.every((o) => VERSION_ONLY.has(o.name)) && p.operands.length === 0;
      if ((onlyVersion && spec.helpRuns !== true) || !runs || spec.runsNothingOfTheProject?.(p) === true) {
        out.effect = "read";
        return null;
      }
      out.effect = "run";
      out.definedBy.push(...spec.definedBy);
      return null;
    },
  };
}
