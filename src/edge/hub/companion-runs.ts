// companion.run inside UserHub: send the approved command to one connected companion and wait for its
// answer; a run id is sent at most once per hub instance (the executor guarantees once across restarts).
import type { ClientMessage, ServerMessage } from "../../protocol/socket.ts";
import type {
  CompanionRunArgs,
  CompanionRunner,
  CompanionRunResult,
} from "../conveyor/tools/companion-run.ts";

type Result = Extract<ClientMessage, { type: "companion_run_result" }>;

/** Time beyond the command's own limit for its answer to come back. */
const ANSWER_MARGIN_MS = 10_000;

export interface CompanionSockets {
  /** Companion sockets, longest-connected first; of one device when given. */
  companions(deviceId?: string): { deviceId: string; send(message: ServerMessage): void }[];
}

export class CompanionRuns {
  private readonly sockets: CompanionSockets;
  private readonly waiting = new Map<string, { deviceId: string; done: (r: Result | undefined) => void }>();

  constructor(sockets: CompanionSockets) {
    this.sockets = sockets;
  }

  readonly runner: CompanionRunner = async (args: CompanionRunArgs, runId: string) => {
    const target = this.sockets.companions(args.device_id)[0];
    if (!target) {
      return {
        unavailable: args.device_id
          ? `companion ${args.device_id} is not connected`
          : "no companion is connected",
      };
    }
    const answer = new Promise<Result | undefined>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(runId);
        resolve(undefined);
      }, args.timeout_ms + ANSWER_MARGIN_MS);
      this.waiting.set(runId, {
        deviceId: target.deviceId,
        done: (r) => {
          clearTimeout(timer);
          this.waiting.delete(runId);
          resolve(r);
        },
      });
    });
    target.send({
      type: "companion_run",
      runId,
      command: args.command,
      cwd: args.cwd,
      timeoutMs: args.timeout_ms,
    });
    const result = await answer;
    if (!result) {
      // It was sent: it may be running still. Never "nothing happened".
      return {
        exit_code: null,
        decision: "allow",
        reason: "no answer from the companion in time",
        stdout: "",
        stderr: "",
        truncated: false,
        timed_out: true,
      };
    }
    const out: CompanionRunResult = {
      exit_code: result.exitCode,
      decision: result.decision,
      reason: result.reason,
      stdout: result.stdout,
      stderr: result.stderr,
      truncated: result.truncated,
      timed_out: result.timedOut,
    };
    return out;
  };

  /** Only the device the run was sent to may answer it. */
  onResult(deviceId: string, result: Result): boolean {
    const waiter = this.waiting.get(result.runId);
    if (!waiter || waiter.deviceId !== deviceId) return false;
    waiter.done(result);
    return true;
  }
}
