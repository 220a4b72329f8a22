// Every `airlock` subcommand, in the order `airlock --help` lists them.
import type { Command } from "../command.ts";
import { mcpCommand } from "./mcp.ts";
import { policyExplain, policyLint, policyTest } from "./policy.ts";
import { policyImport } from "./policy-import.ts";
import { trust } from "./trust.ts";

export const commands: Command[] = [mcpCommand, policyExplain, policyTest, policyLint, policyImport, trust];
