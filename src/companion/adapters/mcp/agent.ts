// Which agent an MCP client is: its own id from `initialize` (clientInfo name and version), so grants,
// policy `agent` conditions and the audit tell Claude Desktop from Cursor from any other client.
import { carriesSecret } from "../../../policy/redact.ts";
import type { AgentToolCall } from "../../control/client.ts";

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** `mcp:<client name>`, lower-cased to [a-z0-9._-]; `mcp:unknown` when the client gave no usable name. */
export function mcpAgent(info: { name?: string; version?: string } | undefined): AgentToolCall["agent"] {
  const raw = info?.name?.trim() ?? "";
  const usable = raw !== "" && !carriesSecret(raw);
  const slug = usable
    ? raw
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, "-")
        .replace(/^-+|-+$/g, "")
    : "";
  const version = info?.version?.trim();
  return {
    id: `mcp:${clip(slug, 100) || "unknown"}`,
    name: usable ? clip(raw, 200) : "mcp-client",
    ...(version && !carriesSecret(version) ? { version: clip(version, 100) } : {}),
    source: "mcp",
  };
}
