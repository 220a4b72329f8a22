// Pages Function for /mcp (remote MCP, docs/mcp.md): forwarded to the Worker unchanged, as /v1/* is.
export { onRequest } from "./v1/[[path]].ts";
