// How an adapter states an agent's tools: each tool's fields, all of them, and the canonical call(s) it stands for.
// A field the table does not list (a newer client's option) travels as `unknown_fields`, so src/policy's judge finds
// the call not understood and never allows it unasked; a tool the table does not list keeps its own name
// (capability `tool`: MCP tools and anything new), so a grant covers only its exact input.
import { UNKNOWN_FIELDS } from "../../policy/tool-names.ts";
import type { MappedTool } from "./claude-code/tools.ts";

export type { MappedTool };

type Input = Record<string, unknown>;

export interface AgentTool {
  /** Every field the agent's schema for this tool has. */
  fields: readonly string[];
  /** The canonical call(s): one, or one per file or path the call touches; every one must be allowed. */
  map: (input: Input) => MappedTool[];
}

export type AgentToolTable = Readonly<Record<string, AgentTool>>;

/** Only set fields that are present, so a rule on `path` never sees `undefined`. */
export function present(entries: Input): Input {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}

export function text(input: Input, key: string): string | undefined {
  const v = input[key];
  return typeof v === "string" ? v : undefined;
}

/** A tool with one canonical call. */
export function one(tool: string, fields: readonly string[], map: (input: Input) => Input): AgentTool {
  return { fields, map: (input) => [{ tool, input: map(input) }] };
}

/** Bookkeeping inside the agent's session (todos, topics, sub-agents): no effect outside it. */
export function session(tool: string, fields: readonly string[]): AgentTool {
  return { fields, map: () => [{ tool, input: {} }] };
}

export function mapAgentTool(table: AgentToolTable, name: string, input: Input): MappedTool[] {
  const entry = Object.hasOwn(table, name) ? table[name] : undefined;
  if (!entry) return [{ tool: name, input }];
  const known = new Set(entry.fields);
  const unknown = Object.keys(input).filter((k) => !known.has(k));
  const calls = entry.map(input);
  if (unknown.length === 0) return calls;
  return calls.map((c) => ({ tool: c.tool, input: { ...c.input, [UNKNOWN_FIELDS]: unknown } }));
}
