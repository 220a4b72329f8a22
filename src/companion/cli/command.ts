// The shape every `airlock` subcommand implements, and the exit codes they share.
import { parseCommandArgs } from "./command-args.ts";

/** Exit codes are a public contract (docs/companion.md, "CLI exit codes"). */
export const ExitCode = {
  ok: 0,
  /** The command ran and its answer is "no": a policy test mismatch, a deny, a failed check. */
  failure: 1,
  /** Bad arguments or input the command cannot use. */
  usage: 2,
  /** Configuration could not be loaded (bad policy file, missing credentials). */
  config: 3,
  /** The edge or the daemon could not be reached. */
  unavailable: 4,
} as const;

export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** A person is at the terminal (prompts such as `airlock init`'s may ask); false for pipes and tests. */
  stdinIsTTY?: boolean;
}

export interface Command {
  /** Words that select the command, e.g. ["policy", "explain"]. */
  name: string[];
  /** Full --help text (the one-line summary lives in commands/index.ts, which lists commands unloaded). */
  help: string;
  run: (args: string[], io: CommandIo) => Promise<number>;
}

/** Parses the only option of a command that takes just `--json`; a mistake throws a UsageError. */
export function parseJsonOnly(args: string[]): boolean {
  return parseCommandArgs(args, { json: { type: "boolean" } }).values.json ?? false;
}
