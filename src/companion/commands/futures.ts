// `airlock futures serve` (the rewritten Claude Code / Codex command) and `airlock futures status`.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { FuturesStats } from "../../protocol/futures.ts";
import { type Command, type CommandIo, ExitCode, parseJsonOnly } from "../cli/command.ts";
import { futuresStatus, serveFuture } from "../futures/client.ts";
import { classOf, PLAIN_COMMAND } from "../futures/command-classes.ts";

const SERVE_HELP = `Usage: airlock futures serve <key> -- <command>

What a warmed shell command becomes when Claude Code or Codex runs it (Airlock's PreToolUse hook rewrites
it): asks the daemon to re-validate the future <key> for <command> in this directory, and prints the cached
output with the command's original exit code; otherwise runs <command> itself with bash. Only commands of
the precognition allowlist (npm test, git status, …) are ever served or run this way.

Exit codes: the command's own; 126 when <command> is not an allowlisted precognition command; 2 on bad
arguments.
`;

const STATUS_HELP = `Usage: airlock futures status [--json]

Precognition per workspace and class: futures warmed, hits, misses by reason, stale rejections, and the
time hits saved. --json prints the same object the dashboard reads from GET /v1/futures/stats.

Exit codes: 0 ok, 4 the daemon is not running.
`;

function runOriginal(command: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", command], { stdio: "inherit" });
    child.once("error", () => resolve(127));
    child.once("close", (code, signal) =>
      resolve(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1)),
    );
  });
}

function writeChunk(stream: NodeJS.WriteStream, data: Buffer): Promise<void> {
  return new Promise((resolve) => (stream.write(data) ? resolve() : stream.once("drain", () => resolve())));
}

export const futuresServe: Command = {
  name: ["futures", "serve"],
  help: SERVE_HELP,
  async run(args, io) {
    const dash = args.indexOf("--");
    const key = args[0];
    if (dash !== 1 || key === undefined || args.length < 3) {
      io.stderr(`airlock futures serve: expected <key> -- <command>\n\n${SERVE_HELP}`);
      return ExitCode.usage;
    }
    const command = args.slice(2).join(" ");
    const refuse = () => {
      io.stderr("airlock futures serve: not a precognition command; run it directly\n");
      return 126;
    };
    // Never a general way to run commands: only what precognition could have warmed (a built-in class, or
    // one the daemon knows from permissions.yaml).
    if (!classOf(command) && !PLAIN_COMMAND.test(command)) return refuse();
    const answer = await serveFuture(io.cwd, { tool: "bash", command, key }, io.env);
    if (!answer.hit || answer.kind !== "command") {
      const classed = classOf(command) !== undefined || (!answer.hit && answer.classed === true);
      return classed ? runOriginal(command) : refuse();
    }
    for (const chunk of answer.chunks) {
      await writeChunk(
        chunk.stream === "stdout" ? process.stdout : process.stderr,
        Buffer.from(chunk.data, "base64"),
      );
    }
    return answer.exitCode;
  },
};

function human(stats: FuturesStats): string {
  const lines = [
    `precognition  ${stats.enabled ? "on" : "OFF"} (injection ${stats.injectionMode}; tool cache ${stats.toolCache ? "on" : "off"}; command futures ${stats.commandFutures ? "on" : "off"})`,
  ];
  if (stats.workspaces.length === 0) lines.push("no workspace warmed yet");
  for (const ws of stats.workspaces) {
    lines.push(
      `workspace    ${ws.name} (${ws.files} files, ${ws.futures} futures, ${ws.overflows} overflows)`,
    );
    for (const c of ws.classes) {
      const misses = Object.entries(c.misses)
        .map(([reason, n]) => `${reason} ${n}`)
        .join(", ");
      lines.push(
        `  ${c.class.padEnd(22)} warms ${c.warms}, hits ${c.hits}, misses ${misses || "0"}, stale ${c.staleRejections}, saved ${(c.savedMs / 1000).toFixed(1)} s`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

export const futuresStatusCommand: Command = {
  name: ["futures", "status"],
  help: STATUS_HELP,
  async run(args, io: CommandIo) {
    const json = parseJsonOnly(args);
    let stats: FuturesStats | null;
    try {
      stats = await futuresStatus(io.env);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      if (json) io.stdout(`${JSON.stringify({ daemon: "not running", error: why })}\n`);
      else
        io.stderr(`airlock futures status: the daemon is not running (${why}); start it with "airlock up"\n`);
      return ExitCode.unavailable;
    }
    if (!stats) return ExitCode.unavailable;
    io.stdout(json ? `${JSON.stringify(stats)}\n` : human(stats));
    return ExitCode.ok;
  },
};
