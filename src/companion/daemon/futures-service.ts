// The daemon's precognition service: the engine behind the control socket's futures_* requests, fed by
// prompt text, and reporting its stats to the edge for the dashboard.
import type { EmergencyControls } from "../../policy/index.ts";
import type { Env } from "../cli/config.ts";
import type { ControlRequest, ControlResponse, FutureAnswer, FutureRequest } from "../control/protocol.ts";
import type { AgentToolCall, CompanionDecision } from "../control/tool-call.ts";
import type { EdgeClient } from "../edge/client.ts";
import { classFromConfig } from "../futures/command-classes.ts";
import { Precog } from "../futures/engine.ts";
import type { PrecogBackend } from "../futures/hook-serving.ts";
import { policyGate } from "../futures/policy-gate.ts";
import { ReplayStore, replayRoot } from "../futures/replay.ts";
import { type AirlockEntry, airlockPrefix } from "../futures/rewrite.ts";
import type { ServeResult } from "../futures/serve.ts";
import type { TriggerSource } from "../futures/triggers.ts";
import { withWatchdog } from "../hooks/runtime.ts";
import type { PolicyState } from "../local-policy/load.ts";

/** How long a hook waits for a warm's injection text (non-silent modes); the warm itself goes on. */
const INJECTION_WAIT_MS = 2_000;

type FuturesRequest = Extract<
  ControlRequest,
  { type: "futures_warm" | "futures_serve" | "futures_lookup" | "futures_status" }
>;

export function isFuturesRequest(request: ControlRequest): request is FuturesRequest {
  return request.type.startsWith("futures_");
}

function futureAnswer(result: ServeResult): FutureAnswer {
  if (!result.hit)
    return { hit: false, reason: result.reason, ...(result.detail ? { detail: result.detail } : {}) };
  const f = result.future;
  return f.kind === "read"
    ? { hit: true, kind: "read", bytes: f.bytes.toString("base64"), relative: f.relative }
    : {
        hit: true,
        kind: "command",
        chunks: f.chunks.map((c) => ({ stream: c.stream, data: c.data.toString("base64") })),
        exitCode: f.exitCode,
      };
}

export class FuturesService {
  readonly precog: Precog;
  /** The decision core with nothing recorded, as precognition asks it (warm time, serve time). */
  readonly #allowedNow: ReturnType<typeof policyGate>;
  readonly #log: (line: string) => void;
  /** Shell replays handed to http hooks and not yet run. */
  readonly #replays: ReplayStore;
  #sentStats = "";

  constructor(deps: {
    env: Env;
    log: (line: string) => void;
    policy: (cwd: string) => PolicyState;
    emergency: () => EmergencyControls;
  }) {
    this.#log = deps.log;
    this.#replays = new ReplayStore(replayRoot(deps.env), deps.log);
    this.#allowedNow = policyGate({ policy: deps.policy, emergency: deps.emergency });
    this.precog = new Precog({
      env: deps.env,
      log: deps.log,
      allowedNow: this.#allowedNow,
      classes: (cwd) => {
        const state = deps.policy(cwd);
        return state.ok ? state.policy.futureCommands.map(classFromConfig) : [];
      },
      // "Nothing else ran since": a replay handed out before a mutating call or a change is never played.
      moved: (root) => this.#replays.drop(root),
    });
  }

  /**
   * An adapter starting up (`warm_up`): loads the directory's policy and asks the gate once about a read nobody
   * made, so the first real call pays neither. Decides, audits, warms and serves nothing.
   */
  warmUp(cwd: string): void {
    this.#allowedNow(cwd)("read", { path: "package.json" });
  }

  /** Warms futures for a trigger; a failure (a cwd that is gone, an unwatchable tree) only logs. */
  async warm(cwd: string, source: TriggerSource, text: string): Promise<string> {
    try {
      return (await this.precog.warm({ cwd, source, text })).injection;
    } catch (error) {
      this.#log(`precog: warming failed: ${error instanceof Error ? error.message : String(error)}`);
      return "";
    }
  }

  /**
   * The engine as a hook event run inside the daemon reaches it (the fast hook's events): in-process, under
   * the hook's switches (`env`), rewriting served commands to the `airlock` the agent ran (`entry`).
   */
  hookBackend(env: Env, entry: AirlockEntry | undefined, options: { replay?: boolean } = {}): PrecogBackend {
    return {
      ...(options.replay
        ? { replay: (cwd, command, key, fallback) => this.#replay(cwd, command, key, fallback) }
        : {}),
      forward: async (prompt, _sessionId, cwd) => {
        // Never logged (it is the user's words).
        void this.warm(cwd, "prompt", prompt);
      },
      warm: (cwd, source, text) => withWatchdog(this.warm(cwd, source, text), INJECTION_WAIT_MS, () => ""),
      lookup: (cwd, command) => this.precog.lookup(cwd, command),
      prefix: () => airlockPrefix(env, entry),
    };
  }

  /** The http hook's serve: validated now, then written for a shell-only replay (replay.ts). */
  async #replay(
    cwd: string,
    command: string,
    key: string,
    fallback: string,
  ): Promise<{ kind: "replay"; line: string } | { kind: "warming" } | { kind: "miss" }> {
    if (!this.precog.finished(cwd, command)) return { kind: "warming" };
    const result = await this.precog
      .serve(cwd, { tool: "bash", command, key })
      .catch((): ServeResult => ({ hit: false, reason: "no_future" }));
    if (!result.hit || result.future.kind !== "command") return { kind: "miss" };
    const line = await this.#replays.prepare(result.future, fallback);
    return line ? { kind: "replay", line } : { kind: "warming" };
  }

  async handle(request: FuturesRequest): Promise<ControlResponse> {
    switch (request.type) {
      case "futures_warm":
        return {
          id: request.id,
          type: "warmed",
          injection: await this.warm(request.cwd, request.source, request.text ?? ""),
        };
      case "futures_serve": {
        const ask = request.request;
        const answer = await this.answer(request.cwd, ask);
        // Tells `airlock futures serve` whether running the original is within the allowlist here.
        if (!answer.hit && ask.tool === "bash")
          answer.classed = this.precog.isClassed(request.cwd, ask.command);
        return { id: request.id, type: "future", answer };
      }
      case "futures_lookup":
        return { id: request.id, type: "future_key", key: this.precog.lookup(request.cwd, request.command) };
      case "futures_status":
        return { id: request.id, type: "futures_stats", stats: await this.precog.stats() };
    }
  }

  /** The re-validated future for `ask` (policy asked again, the watcher's barrier passed), or why there is none. */
  async answer(cwd: string, ask: FutureRequest): Promise<FutureAnswer> {
    const result = await this.precog
      .serve(cwd, ask)
      .catch((): ServeResult => ({ hit: false, reason: "no_future" }));
    return futureAnswer(result);
  }

  /**
   * The future served with a decision (one request decides and serves): only for an allowed call, and only for that
   * very call (its command or path), so a decision never carries another call's result. A miss is no answer.
   */
  async servedWith(
    call: AgentToolCall,
    decision: CompanionDecision,
    ask: FutureRequest,
  ): Promise<FutureAnswer | undefined> {
    if (decision.decision !== "allow") return undefined;
    const same =
      ask.tool === "bash"
        ? call.tool === "bash" && call.input.command === ask.command
        : call.tool === "read" && call.input.path === ask.path;
    if (!same) return undefined;
    const answer = await this.answer(call.cwd, ask);
    return answer.hit ? answer : undefined;
  }

  /** Sends the stats to the edge when they changed since the last report. */
  async report(edge: EdgeClient | null): Promise<void> {
    if (!edge) return;
    const stats = await this.precog.stats();
    const { generatedAt: _at, ...counts } = stats;
    const text = JSON.stringify(counts);
    if (text === this.#sentStats || stats.workspaces.length === 0) return;
    try {
      await edge.postFuturesStats(stats);
      this.#sentStats = text;
    } catch {
      // Telemetry only: tried again at the next interval.
    }
  }

  async close(): Promise<void> {
    await this.#replays.close();
    await this.precog.close();
  }
}
