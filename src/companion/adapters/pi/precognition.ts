// Precognition in Pi: warming from the submitted prompt, the editor draft (debounced) and idle session start;
// `read` and `bash` overridden with Pi's own definitions, so schemas and result shapes are Pi's exactly. A hit
// runs Pi's own tool over the re-validated future's bytes (offset/limit slice the cached file); a miss runs
// Pi's own tool as it would without Airlock.
import { access, readFile } from "node:fs/promises";
import {
  type BashOperations,
  createBashToolDefinition,
  createReadToolDefinition,
  detectSupportedImageMimeTypeFromFile,
  type ExtensionAPI,
  type ExtensionContext,
  type ReadOperations,
} from "@earendil-works/pi-coding-agent";
import { forwardPromptText } from "../../control/client.ts";
import type { FutureRequest } from "../../control/protocol.ts";
import { serveFuture, warmFutures } from "../../futures/client.ts";
import { readSwitches } from "../../futures/switches.ts";
import { DraftDebouncer } from "../../futures/triggers.ts";
import { BatchSnapshots } from "./batch-snapshots.ts";

const INJECTION_TYPE = "airlock-precognition";

/** Pi's read, with every file access answered from one cached file: the one this call asked for. */
export function replayRead(bytes: Buffer): ReadOperations {
  return {
    readFile: async () => bytes,
    access: async () => undefined,
    // Images are never warmed, so a future is text.
    detectImageMimeType: async () => undefined,
  };
}

/** Pi's bash, with the run replaced by the cached output (in its original order) and exit code. */
export function replayBash(chunks: readonly Buffer[], exitCode: number): BashOperations {
  return {
    exec: async (_command, _cwd, { onData }) => {
      for (const chunk of chunks) onData(chunk);
      return { exitCode };
    },
  };
}

/** Pi's defaults for a miss: exactly the built-in behaviour (the file system, the local shell). */
const fsRead: ReadOperations = {
  readFile: (p) => readFile(p),
  access: (p) => access(p),
  detectImageMimeType: detectSupportedImageMimeTypeFromFile,
};

/**
 * Runs Pi's own read and bash once over made-up cached bytes at session start, so the first served call does not
 * pay their first use. Nothing is read from the workspace and nothing runs: the operations are the replays.
 */
export async function warmUpReplays(ctx: ExtensionContext, commandFutures: boolean): Promise<void> {
  const bytes = Buffer.from("airlock warm-up\n");
  const quiet = () => {};
  try {
    await createReadToolDefinition(ctx.cwd, { operations: replayRead(bytes) }).execute(
      "airlock-warm-up",
      { path: "airlock-warm-up.txt" },
      undefined,
      quiet,
      ctx,
    );
    if (commandFutures)
      await createBashToolDefinition(ctx.cwd, { operations: replayBash([bytes], 0) }).execute(
        "airlock-warm-up",
        { command: "airlock warm-up" },
        undefined,
        quiet,
        ctx,
      );
  } catch {
    // Only a warm-up: the first real call pays what this did not.
  }
}

/** What the gate asks for with a call's decision, and where a future served with it waits for the call's execute. */
export interface PiServing {
  /** The future to serve with this call's decision: only for calls the overridden read or bash would serve. */
  request(toolName: string, input: Record<string, unknown>): FutureRequest | undefined;
  snapshots: BatchSnapshots;
}

function sessionIdOf(ctx: ExtensionContext): string {
  try {
    return ctx.sessionManager.getSessionId() || "pi";
  } catch {
    return "pi";
  }
}

export function registerPrecognition(
  pi: ExtensionAPI,
  env: NodeJS.ProcessEnv = process.env,
): PiServing | undefined {
  const switches = readSwitches(env);
  // I10: switched off, Pi keeps its built-in tools and nothing is warmed (the prompt goes nowhere).
  if (!switches.enabled) return undefined;
  let injection = "";
  let draft: DraftDebouncer | undefined;

  pi.on("session_start", (_event, ctx) => {
    void warmFutures(ctx.cwd, "idle", "", env);
    if (switches.toolCache) void warmUpReplays(ctx, switches.commandFutures);
    if (!ctx.hasUI) return;
    draft?.cancel();
    const debouncer = new DraftDebouncer((text) => void warmFutures(ctx.cwd, "draft", text, env));
    draft = debouncer;
    // Draft text is untrusted: it only ever proposes candidates, which the guards and policy still judge.
    ctx.ui.onTerminalInput(() => {
      debouncer.update(ctx.ui.getEditorText());
      return undefined;
    });
  });

  pi.on("input", async (event, ctx) => {
    // Text an extension injected is not the user's; only what a person typed is worth warming for.
    if (event.source === "extension" || event.text.trim() === "") return { action: "continue" };
    // Warmed once per prompt: the silent default hands it over and goes on; the other modes wait for the reads.
    if (switches.injectionMode === "silent-futures")
      void forwardPromptText(event.text, sessionIdOf(ctx), ctx.cwd, { env });
    else injection = await warmFutures(ctx.cwd, "prompt", event.text, env);
    return { action: "continue" };
  });

  pi.on("before_agent_start", () => {
    if (injection === "") return undefined;
    const content = injection;
    injection = "";
    return { message: { customType: INJECTION_TYPE, content, display: false } };
  });

  if (!switches.toolCache) return undefined;
  const cwd = process.cwd();
  const snapshots = new BatchSnapshots();
  pi.on("tool_execution_start", (event) => snapshots.started(event.toolCallId, event.toolName));
  pi.on("tool_execution_end", (event) => snapshots.ended(event.toolCallId));

  const read = createReadToolDefinition(cwd);
  pi.registerTool({
    ...read,
    async execute(id, params, signal, onUpdate, ctx) {
      // Served with the decision and still valid for this batch, or served now (one more daemon round trip).
      const answer =
        snapshots.take(id) ?? (await serveFuture(ctx.cwd, { tool: "read", path: params.path }, env));
      const operations =
        answer.hit && answer.kind === "read" ? replayRead(Buffer.from(answer.bytes, "base64")) : fsRead;
      return createReadToolDefinition(ctx.cwd, { operations }).execute(id, params, signal, onUpdate, ctx);
    },
  });

  const serving: PiServing = {
    snapshots,
    request: (toolName, input) => {
      if (toolName === "read" && typeof input.path === "string") return { tool: "read", path: input.path };
      if (
        toolName === "bash" &&
        switches.commandFutures &&
        input.timeout === undefined &&
        typeof input.command === "string" &&
        input.command !== ""
      )
        return { tool: "bash", command: input.command };
      return undefined;
    },
  };
  if (!switches.commandFutures) return serving;
  const bash = createBashToolDefinition(cwd);
  pi.registerTool({
    ...bash,
    async execute(id, params, signal, onUpdate, ctx) {
      // A call with its own timeout is run as asked: a cached answer would ignore it.
      const answer =
        params.timeout === undefined
          ? (snapshots.take(id) ??
            (await serveFuture(ctx.cwd, { tool: "bash", command: params.command }, env)))
          : undefined;
      const definition =
        answer?.hit && answer.kind === "command"
          ? createBashToolDefinition(ctx.cwd, {
              operations: replayBash(
                answer.chunks.map((c) => Buffer.from(c.data, "base64")),
                answer.exitCode,
              ),
            })
          : createBashToolDefinition(ctx.cwd);
      return definition.execute(id, params, signal, onUpdate, ctx);
    },
  });
  return serving;
}
