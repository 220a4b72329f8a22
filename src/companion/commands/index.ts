// Every `airlock` subcommand, in the order `airlock --help` lists them. Modules load only when their
// command runs: a hook is spawned for every tool call, so it must not pay for the MCP SDK or the policy CLI.
import type { Command } from "../command.ts";

export interface CommandEntry {
  /** Words that select the command, e.g. ["policy", "explain"]. */
  name: string[];
  summary: string;
  load: () => Promise<Command>;
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
    summary: "claude Code hook: decides each tool call (stdin JSON); --install adds it",
    load: async () => (await import("./hook.ts")).hookClaudeCodeCommand,
  },
  {
    name: ["hook", "codex"],
    summary: "codex hook: decides each tool call (stdin JSON); --install adds it",
    load: async () => (await import("./hook.ts")).hookCodexCommand,
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
    name: ["doctor"],
    summary: "check credentials, edge, token, daemon, policy and hooks",
    load: async () => (await import("./doctor.ts")).doctorCommand,
  },
];
