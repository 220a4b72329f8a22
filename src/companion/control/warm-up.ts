// The one-time costs of an adapter's first tool call, paid while the agent starts instead (Pi's session_start):
// zod compiles each object schema on its first parse, the first request opens the daemon connection, and the
// daemon loads the directory's policy on first use. Nothing here makes a call, decides one, serves or runs
// anything: the schemas parse made-up values, and the daemon's warm_up only loads and evaluates policy.
import { daemonDisabled, type Env, socketPath } from "../cli/config.ts";
import { sendControl } from "./connection.ts";
import { ControlResponse, parseLine, type ControlResponse as Response } from "./protocol.ts";
import { AgentToolCall } from "./tool-call.ts";

const WARM_UP_TIMEOUT_MS = 2_000;

/** One of each answer a tool call reads back, with every nested object present, so each schema is compiled. */
const SAMPLE_ANSWERS: Response[] = [
  {
    id: "warm-up",
    type: "decision",
    decision: {
      decision: "allow",
      reason: "warm-up",
      source: "policy",
      rule: "warm-up",
      record: {
        action: "allow",
        layer: "warm-up",
        rule: null,
        capability: "exec",
        risk: "low",
        reasons: ["warm-up"],
        scope: { kind: "command", summary: "warm-up", group: "warm-up" },
        scopeHash: "warm-up",
        justification: "warm-up",
        tool: "bash",
      },
    },
  },
  {
    id: "warm-up",
    type: "future",
    answer: { hit: true, kind: "command", chunks: [{ stream: "stdout", data: "" }], exitCode: 0 },
  },
  { id: "warm-up", type: "future", answer: { hit: true, kind: "read", bytes: "", relative: "warm-up" } },
  { id: "warm-up", type: "future", answer: { hit: false, reason: "no_future", classed: false } },
  { id: "warm-up", type: "warmed", injection: "" },
  { id: "warm-up", type: "ok" },
];

/** Compiles the schemas a tool call parses: the call the adapter sends and every answer it can get back. */
export function compileCallSchemas(cwd: string): void {
  AgentToolCall.safeParse({
    callId: "warm-up",
    sessionId: "warm-up",
    agent: { id: "warm-up", name: "warm-up", source: "warm-up" },
    tool: "bash",
    input: { command: "warm-up" },
    cwd,
    hasUI: false,
  });
  for (const answer of SAMPLE_ANSWERS) parseLine(ControlResponse, JSON.stringify(answer));
}

/**
 * Warms this process's decide and serve paths: schemas compiled, the kept daemon connection opened by one
 * harmless round trip, the directory's policy loaded in the daemon. Never throws; without a daemon it does
 * nothing more than compile.
 */
export async function warmUpClient(cwd: string, env: Env = process.env): Promise<void> {
  compileCallSchemas(cwd);
  if (daemonDisabled(env)) return;
  await sendControl(socketPath(env), { type: "warm_up", cwd }, WARM_UP_TIMEOUT_MS).catch(() => undefined);
}
