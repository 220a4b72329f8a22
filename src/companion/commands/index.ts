// Every `airlock` subcommand, in the order `airlock --help` lists them. Modules load only when their
// command runs: a hook is spawned for every tool call, so it must not pay for the MCP SDK or the policy CLI.
import type { Command } from "../cli/command.ts";

export interface CommandEntry {
  /** Words that select the command, e.g. ["policy", "explain"]. */
  name: string[];
  summary: string;
  load: () => Promise<Command>;
}

/** The hosted runtime's commands live in one module (runtime.ts), loaded when one of them runs. */
async function runtimeCommand(group: string, verb: string): Promise<Command> {
  const { runtimeCommands } = await import("./runtime.ts");
  const found = runtimeCommands.find((c) => c.name[0] === group && c.name[1] === verb);
  if (!found) throw new Error(`no command ${group} ${verb}`);
  return found;
}

export const commands: CommandEntry[] = [
  {
    name: ["pair"],
    summary: "bind this machine to your account with a pairing code",
    load: async () => (await import("./pair.ts")).pairCommand,
  },
  {
    name: ["init"],
    summary: "write a starter policy and install the hooks of the agents found here",
    load: async () => (await import("./init.ts")).initCommand,
  },
  {
    name: ["try"],
    summary: "send a sample call that asks your phone, and print the answer",
    load: async () => (await import("./try.ts")).tryCommand,
  },
  {
    name: ["up"],
    summary: "run the daemon (hub connection, control socket, policy reload)",
    load: async () => (await import("./up.ts")).upCommand,
  },
  {
    name: ["status"],
    summary: "daemon connection, policy layers and pending calls",
    load: async () => (await import("./status.ts")).statusCommand,
  },
  {
    name: ["hook", "claude-code"],
    summary: "Claude Code hook: decides each tool call (stdin JSON); --install adds it",
    load: async () => (await import("./hook.ts")).hookClaudeCodeCommand,
  },
  {
    name: ["hook", "codex"],
    summary: "Codex hook: decides each tool call (stdin JSON); --install adds it",
    load: async () => (await import("./hook.ts")).hookCodexCommand,
  },
  {
    name: ["hook", "gemini"],
    summary: "Gemini CLI hook: decides each tool call (stdin JSON); --install adds it",
    load: async () => (await import("./hook.ts")).hookGeminiCommand,
  },
  {
    name: ["hook", "opencode"],
    summary: "OpenCode hook, run by Airlock's plugin; --install writes the plugin",
    load: async () => (await import("./hook.ts")).hookOpenCodeCommand,
  },
  {
    name: ["hook", "copilot"],
    summary: "GitHub Copilot CLI hook: decides each tool call (stdin JSON); --install adds it",
    load: async () => (await import("./hook.ts")).hookCopilotCommand,
  },
  {
    name: ["futures", "status"],
    summary: "precognition hits, misses and time saved per workspace and class",
    load: async () => (await import("./futures.ts")).futuresStatusCommand,
  },
  {
    name: ["futures", "serve"],
    summary: "serve a warmed command (what the Claude Code / Codex hook rewrites it to)",
    load: async () => (await import("./futures.ts")).futuresServe,
  },
  {
    name: ["mcp"],
    summary: "run the governed MCP server (read, grep, ls, bash) on stdio",
    load: async () => (await import("./mcp.ts")).mcpCommand,
  },
  {
    name: ["policy", "explain"],
    summary: "show the decision the policy makes for one tool call",
    load: async () => (await import("./policy.ts")).policyExplain,
  },
  {
    name: ["policy", "test"],
    summary: "run policy scenario files and report every mismatch",
    load: async () => (await import("./policy.ts")).policyTest,
  },
  {
    name: ["policy", "lint"],
    summary: "validate policy files (all layers for this directory when none are given)",
    load: async () => (await import("./policy.ts")).policyLint,
  },
  {
    name: ["policy", "stats"],
    summary: "asks per 100 calls over 7 days, by reason",
    load: async () => (await import("./policy-insights.ts")).policyStats,
  },
  {
    name: ["policy", "suggest"],
    summary: "rules that would have allowed calls you approved again and again",
    load: async () => (await import("./policy-insights.ts")).policySuggest,
  },
  {
    name: ["policy", "import"],
    summary: "translate Claude Code permission rules into an Airlock config",
    load: async () => (await import("./policy-import.ts")).policyImport,
  },
  {
    name: ["trust"],
    summary: "trust a repository's .airlock/.pi permissions files (pinned to their content)",
    load: async () => (await import("./trust.ts")).trust,
  },
  {
    name: ["hooks", "list"],
    summary: "list webhook hooks (approver token)",
    load: async () => (await import("./hooks.ts")).hooksList,
  },
  {
    name: ["hooks", "create"],
    summary: "create a webhook hook; prints its URL and whsec_ secret once",
    load: async () => (await import("./hooks.ts")).hooksCreate,
  },
  {
    name: ["hooks", "rotate"],
    summary: "rotate a hook's secret, keeping the old one for a grace period",
    load: async () => (await import("./hooks.ts")).hooksRotate,
  },
  {
    name: ["hooks", "delete"],
    summary: "delete a webhook hook",
    load: async () => (await import("./hooks.ts")).hooksDelete,
  },
  {
    name: ["grants", "list"],
    summary: "list every grant with what it covers, who saved it, when, last use (approver token)",
    load: async () => (await import("./grants.ts")).grantsList,
  },
  {
    name: ["grants", "revoke"],
    summary: "revoke a grant: the next matching call or proposal asks again",
    load: async () => (await import("./grants.ts")).grantsRevoke,
  },
  {
    name: ["devices", "list"],
    summary: "list the devices on your account",
    load: async () => (await import("./devices.ts")).devicesList,
  },
  {
    name: ["devices", "pair"],
    summary: "mint a pairing code (with a QR of its link) for another device",
    load: async () => (await import("./devices.ts")).devicesPair,
  },
  {
    name: ["devices", "token"],
    summary: "mint a short-lived, read-only parity token (approver or recovery code)",
    load: async () => (await import("./devices-token.ts")).devicesToken,
  },
  {
    name: ["jobs", "list"],
    summary: "list hosted jobs (approver token)",
    load: () => runtimeCommand("jobs", "list"),
  },
  {
    name: ["jobs", "show"],
    summary: "a job's state, steps, spend and result",
    load: () => runtimeCommand("jobs", "show"),
  },
  {
    name: ["jobs", "create"],
    summary: "start a hosted job",
    load: () => runtimeCommand("jobs", "create"),
  },
  {
    name: ["jobs", "cancel"],
    summary: "cancel a job at its next step",
    load: () => runtimeCommand("jobs", "cancel"),
  },
  {
    name: ["schedules", "list"],
    summary: "list schedules and their next runs",
    load: () => runtimeCommand("schedules", "list"),
  },
  {
    name: ["schedules", "create"],
    summary: "create a cron, interval or one-shot schedule",
    load: () => runtimeCommand("schedules", "create"),
  },
  {
    name: ["schedules", "pause"],
    summary: "pause a schedule",
    load: () => runtimeCommand("schedules", "pause"),
  },
  {
    name: ["schedules", "resume"],
    summary: "resume a schedule from now",
    load: () => runtimeCommand("schedules", "resume"),
  },
  {
    name: ["schedules", "run-now"],
    summary: "start a schedule's task now",
    load: () => runtimeCommand("schedules", "run-now"),
  },
  {
    name: ["chat", "new"],
    summary: "start a chat thread with the hosted agent",
    load: () => runtimeCommand("chat", "new"),
  },
  {
    name: ["chat", "send"],
    summary: "post a chat message",
    load: () => runtimeCommand("chat", "send"),
  },
  {
    name: ["chat", "show"],
    summary: "print a chat thread",
    load: () => runtimeCommand("chat", "show"),
  },
  {
    name: ["deploy"],
    summary: "deploy the edge and dashboard to your Cloudflare account (idempotent; --dry-run)",
    load: async () => (await import("./deploy.ts")).deployCommand,
  },
  {
    name: ["doctor"],
    summary: "check credentials, edge, token, daemon, policy and hooks",
    load: async () => (await import("./doctor.ts")).doctorCommand,
  },
];
