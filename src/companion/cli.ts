// The `airlock` CLI entry: finds the subcommand by its leading words and runs it; usage mistakes are answered in
// Airlock's words with the command's usage line and a "did you mean" when a known word is near.
import { readFileSync } from "node:fs";
import { type CommandIo, ExitCode } from "./cli/command.ts";
import { didYouMean, UsageError, usageOf } from "./cli/command-args.ts";
import { type CommandEntry, commands } from "./commands/index.ts";

function nodeIo(): CommandIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
    env: process.env,
    cwd: process.cwd(),
    stdinIsTTY: process.stdin.isTTY === true,
  };
}

/** The installed package's version (src/companion and dist/companion both sit two levels below it). */
function packageVersion(): string {
  try {
    const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
    const version: unknown = JSON.parse(text).version;
    return typeof version === "string" ? version : "unknown";
  } catch {
    return "unknown";
  }
}

function listing(entries: readonly CommandEntry[]): string {
  const width = Math.max(...entries.map((c) => c.name.join(" ").length));
  return entries.map((c) => `  airlock ${c.name.join(" ").padEnd(width)}  ${c.summary}`).join("\n");
}

function usage(): string {
  return `Usage: airlock <command> [options]\n\nCommands:\n${listing(commands)}\n\nRun "airlock <command> --help" for a command's options.\n`;
}

/** The commands under a group word (`policy`, `hook`, `devices`), or none when the word is not a group. */
function groupOf(word: string): CommandEntry[] {
  return commands.filter((c) => c.name.length > 1 && c.name[0] === word);
}

function groupUsage(word: string, members: CommandEntry[]): string {
  const subs = members.map((c) => c.name.slice(1).join(" "));
  return `Usage: airlock ${word} <${subs.join("|")}> [options]\n\nCommands:\n${listing(members)}\n\nRun "airlock ${word} <command> --help" for a command's options.\n`;
}

const TOP_WORDS = [...new Set(commands.map((c) => c.name[0] as string))];

/** Longest match of leading words wins, so `policy explain` beats a bare `policy`. */
export function findCommand(argv: string[]): { command: CommandEntry; rest: string[] } | undefined {
  let best: { command: CommandEntry; rest: string[] } | undefined;
  for (const command of commands) {
    const n = command.name.length;
    if (argv.length >= n && command.name.every((w, i) => argv[i] === w)) {
      if (!best || n > best.command.name.length) best = { command, rest: argv.slice(n) };
    }
  }
  return best;
}

const isHelp = (word: string | undefined) => word === "--help" || word === "-h" || word === "help";

/** No command matched: a group's help, or "unknown command" with the nearest known word. */
function notFound(argv: string[], io: CommandIo): number {
  const [first = "", second] = argv;
  const members = groupOf(first);
  if (members.length > 0) {
    if (second === undefined || isHelp(second)) {
      (second === undefined ? io.stderr : io.stdout)(groupUsage(first, members));
      return second === undefined ? ExitCode.usage : ExitCode.ok;
    }
    const subs = members.map((c) => c.name.slice(1).join(" "));
    io.stderr(
      `airlock ${first}: unknown command "${second}"${didYouMean(second, subs, (s) => `"airlock ${first} ${s}"`)}\n\n${groupUsage(first, members)}`,
    );
    return ExitCode.usage;
  }
  if (first.startsWith("-")) {
    io.stderr(`airlock: unknown option ${first}${didYouMean(first, ["--help", "--version"])}\n\n${usage()}`);
    return ExitCode.usage;
  }
  io.stderr(
    `airlock: unknown command "${first}"${didYouMean(first, TOP_WORDS, (s) => `"airlock ${s}"`)}\n\n${usage()}`,
  );
  return ExitCode.usage;
}

export async function main(argv: string[], io: CommandIo = nodeIo()): Promise<number> {
  if (argv.length === 0 || isHelp(argv[0])) {
    // `airlock help policy explain` is `airlock policy explain --help`.
    if (argv[0] === "help" && argv.length > 1) return main([...argv.slice(1), "--help"], io);
    (argv.length === 0 ? io.stderr : io.stdout)(usage());
    return argv.length === 0 ? ExitCode.usage : ExitCode.ok;
  }
  if (argv[0] === "--version" || argv[0] === "-v") {
    io.stdout(`${packageVersion()}\n`);
    return ExitCode.ok;
  }
  const found = findCommand(argv);
  if (!found) return notFound(argv, io);
  const label = `airlock ${found.command.name.join(" ")}`;
  let help = "";
  try {
    const command = await found.command.load();
    help = command.help;
    if (found.rest.includes("--help") || found.rest.includes("-h")) {
      io.stdout(command.help.endsWith("\n") ? command.help : `${command.help}\n`);
      return ExitCode.ok;
    }
    return await command.run(found.rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${label}: ${error.message}\n${usageOf(help)}\nRun "${label} --help" for details.\n`);
      // For an agent hook a usage mistake must still block the call (2 is also the blocking exit code).
      return ExitCode.usage;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`${label}: ${message}\n`);
    // For an agent hook, exit 2 is the blocking error: a crash must never let the call through.
    return found.command.name[0] === "hook" ? 2 : ExitCode.failure;
  }
}
