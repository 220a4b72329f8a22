// The companion's side of the conveyor's companion.run: a command the person approved on the phone,
// judged here by the same local policy as an agent's bash call (deny wins; an `ask` was already
// answered by the person), run once per run id, its output capped, the result sent back to the hub.
import { spawn } from "node:child_process";
import type { ClientMessage, ServerMessage } from "../../protocol/index.ts";
import { type DecideDeps, decideLocally } from "../deciding/decide.ts";

type RunRequest = Extract<ServerMessage, { type: "companion_run" }>;
type RunResult = Extract<ClientMessage, { type: "companion_run_result" }>;

export const OUTPUT_CAP = 64 * 1024;

function capped(): { add(chunk: Buffer): void; text(): string; truncated(): boolean } {
  let text = "";
  let cut = false;
  return {
    add(chunk) {
      if (text.length >= OUTPUT_CAP) {
        cut = true;
        return;
      }
      text += chunk.toString("utf8");
      if (text.length > OUTPUT_CAP) {
        text = text.slice(0, OUTPUT_CAP);
        cut = true;
      }
    },
    text: () => text,
    truncated: () => cut,
  };
}

export class EdgeRuns {
  readonly #seen = new Set<string>();
  readonly #deps: () => Omit<DecideDeps, "approver">;
  readonly #send: (message: RunResult) => void;
  readonly #log: (line: string) => void;

  constructor(
    deps: () => Omit<DecideDeps, "approver">,
    send: (message: RunResult) => void,
    log: (line: string) => void,
  ) {
    this.#deps = deps;
    this.#send = send;
    this.#log = log;
  }

  async handle(request: RunRequest): Promise<void> {
    // A redelivered run id is never started twice.
    if (this.#seen.has(request.runId)) return;
    this.#seen.add(request.runId);
    const base = { type: "companion_run_result" as const, runId: request.runId };
    const local = decideLocally(
      {
        callId: request.runId.slice(0, 200),
        sessionId: "airlock-conveyor",
        agent: { id: "conveyor", name: "Airlock conveyor" },
        tool: "bash",
        input: { command: request.command },
        cwd: request.cwd,
        hasUI: true,
      },
      this.#deps(),
    );
    if ("decision" in local && local.decision.decision !== "allow") {
      this.#log(`companion.run ${request.runId} refused by local policy: ${local.decision.reason}`);
      this.#send({
        ...base,
        decision: "deny",
        reason: local.decision.reason,
        exitCode: null,
        stdout: "",
        stderr: "",
        truncated: false,
        timedOut: false,
      });
      return;
    }
    this.#log(`companion.run ${request.runId}: running an approved command in ${request.cwd}`);
    this.#send({
      ...base,
      decision: "allow",
      reason: "approved on the phone; allowed by local policy",
      ...(await this.#run(request)),
    });
  }

  #run(request: RunRequest): Promise<Omit<RunResult, "type" | "runId" | "decision" | "reason">> {
    return new Promise((resolve) => {
      const stdout = capped();
      const stderr = capped();
      let timedOut = false;
      const child = spawn("bash", ["-c", request.command], {
        cwd: request.cwd,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      const timer = setTimeout(() => {
        timedOut = true;
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      }, request.timeoutMs);
      child.stdout.on("data", (d: Buffer) => stdout.add(d));
      child.stderr.on("data", (d: Buffer) => stderr.add(d));
      const finish = (exitCode: number | null, error?: string) => {
        clearTimeout(timer);
        resolve({
          exitCode,
          stdout: stdout.text(),
          stderr: error ?? stderr.text(),
          truncated: stdout.truncated() || stderr.truncated(),
          timedOut,
        });
      };
      child.once("error", (error) => finish(null, error.message));
      child.once("close", (code) => finish(code));
    });
  }
}
