// The `airlock` CLI entry: finds the subcommand by its leading words and runs it.
import { readFileSync } from "node:fs";
import { type CommandIo, ExitCode } from "./command.ts";
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

function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.join(" ").length));
  const lines = commands.map((c) => `  airlock ${c.name.join(" ").padEnd(width)}  ${c.summary}`);
  return `Usage: airlock <command> [options]\n\nCommands:\n${lines.join("\n")}\n\nRun "airlock <command> --help" for a command's options.\n`;
}

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

export async function main(argv: string[], io: CommandIo = nodeIo()): Promise<number> {
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
    io.stdout(usage());
    return argv.length === 0 ? ExitCode.usage : ExitCode.ok;
  }
  if (argv[0] === "--version") {
    io.stdout(`${packageVersion()}\n`);
    return ExitCode.ok;
  }
  const found = findCommand(argv);
  if (!found) {
    io.stderr(`airlock: unknown command "${argv.join(" ")}"\n\n${usage()}`);
    return ExitCode.usage;
  }
  try {
    const command = await found.command.load();
    if (found.rest.includes("--help") || found.rest.includes("-h")) {
      io.stdout(command.help.endsWith("\n") ? command.help : `${command.help}\n`);
      return ExitCode.ok;
    }
    return await command.run(found.rest, io);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`airlock ${found.command.name.join(" ")}: ${message}\n`);
    // For an agent hook, exit 2 is the blocking error: a crash must never let the call through.
    return found.command.name[0] === "hook" ? 2 : ExitCode.failure;
  }
}
