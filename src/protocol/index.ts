// Wire schemas shared by the edge, the companion and the dashboard.

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
