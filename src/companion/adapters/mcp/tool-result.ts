// The result shape the governed tools return, independent of the MCP SDK so the Pi side could reuse it.

export type ToolContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

export interface ToolResult {
  content: ToolContent[];
  isError?: boolean;
}

export function textResult(text: string): ToolResult {
  return { content: [{ type: "text", text }] };
}

export function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** A failure the model should read (not found, bad pattern, non-zero exit): becomes an error result. */
export class ToolFailure extends Error {}
