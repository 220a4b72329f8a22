// Every `airlock` subcommand, in the order `airlock --help` lists them.
import type { Command } from "../command.ts";
import { doctorCommand } from "./doctor.ts";
import { hookClaudeCodeCommand, hookCodexCommand } from "./hook.ts";
import { mcpCommand } from "./mcp.ts";
import { pairCommand } from "./pair.ts";
import { policyExplain, policyLint, policyTest } from "./policy.ts";
import { policyImport } from "./policy-import.ts";
import { statusCommand } from "./status.ts";
import { trust } from "./trust.ts";
import { upCommand } from "./up.ts";

export const commands: Command[] = [
  pairCommand,
  upCommand,
  statusCommand,
  hookClaudeCodeCommand,
  hookCodexCommand,
  mcpCommand,
  policyExplain,
  policyTest,
  policyLint,
  policyImport,
  trust,
  doctorCommand,
];
