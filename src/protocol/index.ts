// Wire schemas shared by the edge, the companion and the dashboard: every shape once, parsed on every boundary.
// Wire style (docs/development.md, "Wire style"): the websocket is camelCase throughout (the capability-prompt
// spec's RPC mode: promptId, callIds, timeoutMs, and Airlock's own messages alike); REST is snake_case throughout,
// except endpoints that return the spec's prompt event, which keep the spec's shape. An event with a payload
// object wraps it in `data`; commands and replies are flat (as the spec's capability_decision and response). The
// session's rules (close codes, deadlines, backoff, hello → welcome → resume → sync) live in session.ts; the one
// reconnecting client in session-client.ts (imported directly: it is runtime code, not a schema).

export * from "./audit.ts";
export * from "./capability.ts";
export * from "./conveyor.ts";
export * from "./dashboard.ts";
export * from "./decisions.ts";
export * from "./errors.ts";
export * from "./futures.ts";
export * from "./grants.ts";
export * from "./limits.ts";
export * from "./pairing.ts";
export * from "./parity-token.ts";
export * from "./passkey-hosts.ts";
export * from "./planner.ts";
export * from "./prompts.ts";
export * from "./redaction.ts";
export * from "./rest.ts";
export * from "./roles.ts";
export * from "./runtime.ts";
export * from "./socket.ts";
export * from "./task.ts";
