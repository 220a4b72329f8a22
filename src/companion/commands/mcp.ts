// `airlock mcp`: the governed stdio MCP server for Claude Code, Cursor and any other MCP client.
import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { DEFAULT_GREP_TIMEOUT_MS } from "../adapters/mcp/grep-runner.ts";
import { createGovernedServer } from "../adapters/mcp/server.ts";
import { type Command, ExitCode } from "../cli/command.ts";
import { parseCommandArgs } from "../cli/command-args.ts";
import { PACKAGE_NAME } from "../cli/invocation.ts";
import { airlockCommandLine } from "../hooks/install.ts";

const help = (command: string) => `Usage: airlock mcp [--workspace DIR]

Runs a Model Context Protocol server on stdin/stdout with governed read, grep, ls and bash tools.
Every call is decided by your Airlock policy (through the daemon when it runs, else locally and on
the edge); paths are confined to the workspace and secrets, node_modules/ and .git/ are never served.
Logs go to stderr only.

Options:
  --workspace DIR   The folder the tools work in (default: the current directory)
  -h, --help        Show this help

Environment:
  AIRLOCK_GREP_TIMEOUT_MS   How long one grep may run before it is stopped (default 20000)

Register it with Claude Code (the absolute command of this installation):
  claude mcp add airlock -- ${command} mcp
For Cursor and .mcp.json see docs/agents.md. With npx, name the package: npx ${PACKAGE_NAME} mcp
(the bare name "airlock" on npm is an unrelated package).

Exit codes: 0 when the client disconnects, 2 bad arguments, 3 the workspace does not exist.
`;

/** `airlock` as the hooks are installed: absolute node and bin paths, so any client's PATH works. */
function mcpCommandLine(env: NodeJS.ProcessEnv): string {
  return airlockCommandLine(env);
}

function grepTimeoutMs(env: NodeJS.ProcessEnv): number {
  const n = Number(env.AIRLOCK_GREP_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_GREP_TIMEOUT_MS;
}

export const mcpCommand: Command = {
  name: ["mcp"],
  get help() {
    return help(mcpCommandLine(process.env));
  },
  run: async (args, io) => {
    const workspaceArg = parseCommandArgs(args, { workspace: { type: "string" } }).values.workspace;
    const requested = resolve(io.cwd, workspaceArg ?? ".");
    const workspace = await realpath(requested).catch(() => undefined);
    if (!workspace || !(await stat(workspace)).isDirectory()) {
      io.stderr(`airlock mcp: workspace ${requested} is not a folder\n`);
      return ExitCode.config;
    }
    // stdout carries JSON-RPC only: anything a dependency prints goes to stderr instead.
    console.log = console.error;
    console.info = console.error;
    const governed = createGovernedServer({
      workspace,
      env: io.env,
      version: process.env.npm_package_version ?? "0.1.0",
      log: (line) => io.stderr(`airlock mcp: ${line}\n`),
      grepTimeoutMs: grepTimeoutMs(io.env),
    });
    const server = governed.mcp;
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((done) => {
      server.server.onclose = done;
      // Calls already received are answered before the server goes (their responses may still flush).
      process.stdin.once(
        "end",
        () =>
          void governed
            .drain()
            .then(() => server.close())
            .finally(done),
      );
    });
    await server.connect(transport);
    io.stderr(`airlock mcp: serving ${workspace}\n`);
    await closed;
    return ExitCode.ok;
  },
};
