// The governed MCP server: read, grep, ls and bash, each call decided by policy and guarded before it runs.
import { randomUUID } from "node:crypto";
import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { boundaryNote } from "../../../policy/index.ts";
import { type AgentToolCall, requestDecision } from "../../control/client.ts";
import { serveFuture } from "../../futures/client.ts";
import { resolveWorkspacePath } from "../../guards/index.ts";
import { loadLocalPolicy } from "../../local-policy/load.ts";
import { mcpAgent } from "./agent.ts";
import { bashResult, bashTool } from "./bash-tool.ts";
import { GrepRunner } from "./grep-runner.ts";
import { lsTool } from "./ls-tool.ts";
import { readResult, readTool } from "./read-tool.ts";
import { errorResult, ToolFailure, type ToolResult } from "./tool-result.ts";
import { MAX_BYTES, MAX_LINE_CHARS, MAX_LINES } from "./truncate.ts";

export interface GovernedServerOptions {
  /** Real path of the workspace every tool is confined to. */
  workspace: string;
  env: NodeJS.ProcessEnv;
  version: string;
  /** Diagnostics; stdout is the protocol channel, so this must write elsewhere. */
  log: (line: string) => void;
  /** How long one grep may run before it is stopped (`AIRLOCK_GREP_TIMEOUT_MS`). */
  grepTimeoutMs?: number;
}

type Resolved = { absolute: string; relative: string };

const KB = MAX_BYTES / 1024;

function dropUndefined(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}

export interface GovernedServer {
  mcp: McpServer;
  /** Resolves once no tool call is running (a client that closes stdin still gets its answers). */
  drain(): Promise<void>;
}

const INSTRUCTIONS =
  "Airlock-governed workspace tools. Every call is checked against the user's policy; some need a person's approval on their phone, some are refused. Paths must stay inside the workspace; secrets, node_modules/ and .git/ are never served.";

/**
 * What the policy says up front: its boundary note, so the model knows the limits before it plans (as the
 * Pi extension does), and its hidden tools, which are not even listed (pi.hitl: a hidden tool looks absent,
 * so the model does not retry it). Every call is still decided on its own; this only shapes the listing.
 */
function policyPreview(
  workspace: string,
  env: NodeJS.ProcessEnv,
): { instructions: string; hidden: Set<string> } {
  const state = loadLocalPolicy(workspace, env);
  if (!state.ok) {
    return {
      instructions: `${INSTRUCTIONS} The policy does not load, so every call will be refused.`,
      hidden: new Set(),
    };
  }
  const note = boundaryNote(state.policy);
  return {
    instructions: note === "" ? INSTRUCTIONS : `${INSTRUCTIONS} ${note}`,
    hidden: new Set(state.policy.hiddenTools.keys()),
  };
}

export function createGovernedServer(options: GovernedServerOptions): GovernedServer {
  const preview = policyPreview(options.workspace, options.env);
  const server = new McpServer(
    { name: "airlock", version: options.version },
    { instructions: preview.instructions },
  );
  const sessionId = `mcp-${randomUUID()}`;
  const inFlight = new Set<Promise<ToolResult>>();
  const grep = new GrepRunner(options.grepTimeoutMs);

  const agent = (): AgentToolCall["agent"] => mcpAgent(server.server.getClientVersion());

  /** Guard (when the tool takes a path), decide, guard again (the wait may be long), run. */
  async function govern(
    tool: string,
    input: Record<string, unknown>,
    path: string | undefined,
    requestId: string | number,
    run: (resolved: Resolved) => Promise<ToolResult>,
  ): Promise<CallToolResult> {
    const running = governed(tool, input, path, requestId, run);
    inFlight.add(running);
    try {
      const result = await running;
      return { content: result.content, ...(result.isError ? { isError: true } : {}) };
    } finally {
      inFlight.delete(running);
    }
  }

  async function governed(
    tool: string,
    input: Record<string, unknown>,
    path: string | undefined,
    requestId: string | number,
    run: (resolved: Resolved) => Promise<ToolResult>,
  ): Promise<ToolResult> {
    const refusal = async (): Promise<Resolved | string> => {
      if (path === undefined) return { absolute: options.workspace, relative: "." };
      const r = await resolveWorkspacePath(options.workspace, path);
      return r.ok ? { absolute: r.absolute, relative: r.relative } : `Refused by Airlock: ${r.reason}`;
    };
    const before = await refusal();
    if (typeof before === "string") {
      options.log(`${tool}: refused by path guard`);
      return errorResult(before);
    }
    const call: AgentToolCall = {
      callId: `${sessionId}-${String(requestId)}`,
      sessionId,
      agent: agent(),
      tool,
      input: dropUndefined(input),
      cwd: options.workspace,
      hasUI: false,
    };
    const decision = await requestDecision(call, { env: options.env });
    options.log(
      `${tool}: ${decision.decision} (${decision.source}${decision.rule ? `, ${decision.rule}` : ""})`,
    );
    if (decision.decision !== "allow") return errorResult(decision.reason);
    const after = await refusal();
    if (typeof after === "string") return errorResult(after);
    try {
      return await run(after);
    } catch (error) {
      if (error instanceof ToolFailure) return errorResult(error.message);
      options.log(`${tool}: failed: ${error instanceof Error ? error.message : String(error)}`);
      return errorResult(`${tool} failed unexpectedly`);
    }
  }

  const registered: Record<string, RegisteredTool> = {};
  registered.read = server.registerTool(
    "read",
    {
      description: `Read a file in the workspace (text or image). Text is cut at ${MAX_LINES} lines or ${KB}KB, whichever comes first; continue with offset/limit. Governed by Airlock policy.`,
      inputSchema: {
        path: z.string().describe("File to read, relative to the workspace (or absolute inside it)"),
        offset: z.number().optional().describe("First line to return, 1-indexed"),
        limit: z.number().optional().describe("How many lines to return at most"),
      },
      annotations: { readOnlyHint: true },
    },
    (args, extra) =>
      govern("read", args, args.path, extra.requestId, async (r) => {
        // A warmed future answers after the daemon re-validates it (and re-asks policy); a miss reads the file.
        const future = await serveFuture(options.workspace, { tool: "read", path: r.relative }, options.env);
        if (future.hit && future.kind === "read")
          return readResult(Buffer.from(future.bytes, "base64"), args);
        return readTool(options.workspace, r.absolute, args);
      }),
  );

  registered.grep = server.registerTool(
    "grep",
    {
      description: `Search file contents in the workspace for a regex or literal. Lines come back as path:line: text. At most 100 matches by default or ${KB}KB; lines longer than ${MAX_LINE_CHARS} characters are cut. Secret files, node_modules/ and .git/ are skipped. Governed by Airlock policy.`,
      inputSchema: {
        pattern: z.string().describe("Regular expression, or a literal string with literal: true"),
        path: z.string().optional().describe("Folder or file to search (default: the workspace)"),
        glob: z.string().optional().describe("Only files matching this glob, e.g. '*.ts' or 'src/**/*.ts'"),
        ignoreCase: z.boolean().optional().describe("Case-insensitive (default false)"),
        literal: z.boolean().optional().describe("Treat pattern as a plain string (default false)"),
        context: z.number().optional().describe("Lines of context around each match (default 0)"),
        limit: z.number().optional().describe("Maximum matches (default 100)"),
      },
      annotations: { readOnlyHint: true },
    },
    (args, extra) =>
      govern("grep", args, args.path ?? ".", extra.requestId, (r) =>
        grep.run(options.workspace, r.absolute, r.relative, args),
      ),
  );

  registered.ls = server.registerTool(
    "ls",
    {
      description: `List a folder in the workspace: sorted, '/' after folders, dotfiles included, secrets left out. At most 500 entries by default or ${KB}KB. Governed by Airlock policy.`,
      inputSchema: {
        path: z.string().optional().describe("Folder to list (default: the workspace)"),
        limit: z.number().optional().describe("Maximum entries (default 500)"),
      },
      annotations: { readOnlyHint: true },
    },
    (args, extra) =>
      govern("ls", args, args.path ?? ".", extra.requestId, (r) => lsTool(r.absolute, r.relative, args)),
  );

  registered.bash = server.registerTool(
    "bash",
    {
      description: `Run a bash command in the workspace. Returns stdout and stderr together; long output keeps the last ${MAX_LINES} lines or ${KB}KB. Optional timeout in seconds. Governed by Airlock policy: some commands need approval, some are refused.`,
      inputSchema: {
        command: z.string().describe("The bash command"),
        timeout: z.number().optional().describe("Timeout in seconds (default: none)"),
      },
      annotations: { destructiveHint: true },
    },
    (args, extra) =>
      govern("bash", args, undefined, extra.requestId, async () => {
        if (args.timeout === undefined) {
          const future = await serveFuture(
            options.workspace,
            { tool: "bash", command: args.command },
            options.env,
          );
          if (future.hit && future.kind === "command") {
            const output = Buffer.concat(future.chunks.map((c) => Buffer.from(c.data, "base64")));
            return bashResult(output, { dropped: false, exitCode: future.exitCode });
          }
        }
        return bashTool(options.workspace, args, extra.signal);
      }),
  );

  for (const [name, tool] of Object.entries(registered)) if (preview.hidden.has(name)) tool.remove();

  const drain = async (): Promise<void> => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    await grep.close();
  };
  return { mcp: server, drain };
}
