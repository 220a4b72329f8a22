// The daemon's control socket protocol: newline-delimited JSON, one request → one response, zod on both ends.

import { z } from "zod";
import { FutureMissReason, FuturesStats } from "../../protocol/futures.ts";
import { HOOK_ENV_KEYS } from "../cli/config.ts";
import { TriggerSource } from "../futures/triggers.ts";
import { HOOK_AGENTS } from "../hooks/output.ts";
import { AgentToolCall, CompanionDecision } from "./tool-call.ts";

/** A call an adapter wants answered from a future: read a path, or run an exact command. */
export const FutureRequest = z.discriminatedUnion("tool", [
  z.strictObject({ tool: z.literal("read"), path: z.string().min(1).max(4096) }),
  z.strictObject({
    tool: z.literal("bash"),
    command: z.string().min(1).max(100_000),
    key: z.string().max(100).optional(),
  }),
]);
export type FutureRequest = z.infer<typeof FutureRequest>;

/** A served future: file bytes, or a command's output (in arrival order, per stream) and exit code. */
export const FutureAnswer = z.union([
  z.object({
    hit: z.literal(true),
    kind: z.literal("read"),
    /** Base64 of the file's bytes. */
    bytes: z.string(),
    relative: z.string(),
  }),
  z.object({
    hit: z.literal(true),
    kind: z.literal("command"),
    chunks: z.array(z.object({ stream: z.enum(["stdout", "stderr"]), data: z.string() })),
    exitCode: z.number().int(),
  }),
  z.object({
    hit: z.literal(false),
    reason: FutureMissReason,
    detail: z.string().optional(),
    /** For a command: whether it is a precognition class in that workspace (so running it is allowed). */
    classed: z.boolean().optional(),
  }),
]);
export type FutureAnswer = z.infer<typeof FutureAnswer>;

export const ControlRequest = z.discriminatedUnion("type", [
  z.strictObject({
    id: z.string().max(100),
    type: z.literal("decide"),
    call: AgentToolCall,
    askMode: z.enum(["approver", "return"]).optional(),
    /**
     * Decide and serve in one request: when the call is allowed and this is the same call (its command or path), the
     * answer carries the re-validated future too. The adapter may use it only if no other call of its batch that
     * could change the result ran since (src/companion/adapters/pi/batch-snapshots.ts); otherwise it serves again.
     */
    serve: FutureRequest.optional(),
  }),
  z.strictObject({
    id: z.string().max(100),
    type: z.literal("prompt_text"),
    text: z.string().max(200_000),
    session_id: z.string().max(200),
    cwd: z.string().max(4096).optional(),
  }),
  z.strictObject({
    id: z.string().max(100),
    type: z.literal("status"),
    /** Include the policy layers for this directory (the caller's cwd). */
    cwd: z.string().max(4096).optional(),
  }),
  z.strictObject({
    id: z.string().max(100),
    type: z.literal("session_end"),
    session_id: z.string().max(200),
  }),
  /**
   * A whole agent hook event, from the fast hook entry (src/companion/hooks/fast.ts): the daemon validates and
   * answers it exactly as the hook would, so the hook process loads no schema library and no policy engine.
   */
  z.strictObject({
    id: z.string().max(100),
    type: z.literal("hook"),
    agent: z.enum(HOOK_AGENTS),
    stdin: z.string(),
    /** The hook process's own switches that shape its answer (AIRLOCK_CLAUDE_ASK, timeouts, precognition's). */
    env: z.partialRecord(z.enum(HOOK_ENV_KEYS), z.string().max(4096)).optional(),
    /**
     * The node and `airlock` entry the agent ran, so a command rewritten to `airlock futures serve` runs the same
     * airlock (the daemon's own argv may be another entry, or a test runner).
     */
    entry: z.strictObject({ node: z.string().min(1).max(4096), bin: z.string().min(1).max(4096) }).optional(),
  }),
  z.strictObject({
    id: z.string().max(100),
    type: z.literal("futures_warm"),
    cwd: z.string().min(1).max(4096),
    source: TriggerSource,
    text: z.string().max(200_000).optional(),
  }),
  z.strictObject({
    id: z.string().max(100),
    type: z.literal("futures_serve"),
    cwd: z.string().min(1).max(4096),
    request: FutureRequest,
  }),
  z.strictObject({
    id: z.string().max(100),
    type: z.literal("futures_lookup"),
    cwd: z.string().min(1).max(4096),
    command: z.string().min(1).max(100_000),
  }),
  z.strictObject({ id: z.string().max(100), type: z.literal("futures_status") }),
  /**
   * An adapter starting up (Pi's session_start): the daemon loads this directory's policy and runs the decision
   * core once on a read nobody made, so the first real call pays neither. Decides, audits, serves and runs nothing.
   */
  z.strictObject({ id: z.string().max(100), type: z.literal("warm_up"), cwd: z.string().min(1).max(4096) }),
]);
export type ControlRequest = z.infer<typeof ControlRequest>;

export const PendingCallView = z.object({
  callId: z.string(),
  tool: z.string(),
  agent: z.string(),
  scope: z.string(),
  promptId: z.string().optional(),
  since: z.string(),
});

export const DaemonStatus = z.object({
  pid: z.number(),
  startedAt: z.string(),
  server: z.string().nullable(),
  deviceId: z.string().nullable(),
  connection: z.object({
    state: z.enum(["unpaired", "connecting", "connected", "disconnected", "revoked"]),
    since: z.string(),
    lastError: z.string().nullable(),
    reconnects: z.number(),
  }),
  emergency: z.object({
    readOnly: z.boolean(),
    disableHighImpact: z.boolean(),
    blockedTools: z.array(z.string()),
  }),
  policy: z.array(
    z.object({
      cwd: z.string(),
      ok: z.boolean(),
      loadedAt: z.string(),
      files: z.array(z.object({ layer: z.string(), path: z.string(), present: z.boolean() })),
      error: z.string().nullable(),
      /** True when the files on disk fail to load and the last good policy is still in use. */
      stale: z.boolean(),
    }),
  ),
  pending: z.array(PendingCallView),
  grants: z.object({ persisted: z.number(), session: z.number() }),
  auditQueued: z.number(),
  decisions: z.number(),
});
export type DaemonStatus = z.infer<typeof DaemonStatus>;

export const ControlResponse = z.discriminatedUnion("type", [
  z.object({
    id: z.string(),
    type: z.literal("decision"),
    decision: CompanionDecision,
    /** Only with `serve`, an allow and a hit. */
    future: FutureAnswer.optional(),
  }),
  z.object({ id: z.string(), type: z.literal("ok") }),
  /** Text to add to the model's context under the injection mode ("" in the default silent mode). */
  z.object({ id: z.string(), type: z.literal("warmed"), injection: z.string() }),
  z.object({ id: z.string(), type: z.literal("future"), answer: FutureAnswer }),
  /** The key for `airlock futures serve <key> -- <command>`, or null when nothing is warmed for it. */
  z.object({ id: z.string(), type: z.literal("future_key"), key: z.string().nullable() }),
  z.object({ id: z.string(), type: z.literal("futures_stats"), stats: FuturesStats }),
  z.object({ id: z.string(), type: z.literal("status"), status: DaemonStatus }),
  z.object({ id: z.string(), type: z.literal("error"), message: z.string() }),
  z.object({
    id: z.string(),
    type: z.literal("hook_result"),
    stdout: z.string(),
    stderr: z.string(),
    exitCode: z.number().int(),
  }),
]);
export type ControlResponse = z.infer<typeof ControlResponse>;

/** Parses one line; a line that is not JSON or not a known message is reported, never thrown. */
export function parseLine<T>(
  schema: z.ZodType<T>,
  line: string,
): { ok: true; value: T } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { ok: false, error: "not JSON" };
  }
  const parsed = schema.safeParse(raw);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: parsed.error.issues[0]?.message ?? "invalid" };
}
