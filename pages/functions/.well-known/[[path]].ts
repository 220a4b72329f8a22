// Pages Function for /.well-known/* (remote MCP's OAuth discovery documents): forwarded to the Worker
// unchanged, as /v1/* is; the Worker answers them for this origin.
export { onRequest } from "../v1/[[path]].ts";
