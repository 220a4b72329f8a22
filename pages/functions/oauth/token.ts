// Pages Function for remote MCP's token endpoint: forwarded to the Worker unchanged, as /v1/* is.
export { onRequest } from "../v1/[[path]].ts";
