// How adapters and `airlock futures` reach precognition in the daemon. Every failure is a miss: without the
// daemon, the agent's own tool runs as if precognition did not exist.

import type { FuturesStats } from "../../protocol/futures.ts";
import { daemonDisabled, type Env, socketPath } from "../cli/config.ts";
import { sendControl } from "../control/connection.ts";
import type { FutureAnswer, FutureRequest } from "../control/protocol.ts";
import { WARM_TIMEOUT_MS } from "./command-futures.ts";
import { readSwitches } from "./switches.ts";
import type { TriggerSource } from "./triggers.ts";

const READ_SERVE_TIMEOUT_MS = 5_000;
/** A command future may still be warming; the serve then waits for it (bounded by the warm's own timeout). */
const BASH_SERVE_TIMEOUT_MS = WARM_TIMEOUT_MS + 5_000;
const QUICK_TIMEOUT_MS = 2_000;

function off(env: Env): boolean {
  return !readSwitches(env).enabled || daemonDisabled(env);
}

export async function serveFuture(
  cwd: string,
  request: FutureRequest,
  env: Env = process.env,
): Promise<FutureAnswer> {
  if (off(env)) return { hit: false, reason: "disabled" };
  try {
    const res = await sendControl(
      socketPath(env),
      { type: "futures_serve", cwd, request },
      request.tool === "read" ? READ_SERVE_TIMEOUT_MS : BASH_SERVE_TIMEOUT_MS,
    );
    return res.type === "future" ? res.answer : { hit: false, reason: "no_future", detail: "daemon" };
  } catch {
    return { hit: false, reason: "no_future", detail: "daemon not reachable" };
  }
}

/** The key for `airlock futures serve`, when the daemon holds (or is warming) this exact command. */
export async function lookupFuture(
  cwd: string,
  command: string,
  env: Env = process.env,
): Promise<string | null> {
  if (off(env)) return null;
  try {
    const res = await sendControl(
      socketPath(env),
      { type: "futures_lookup", cwd, command },
      QUICK_TIMEOUT_MS,
    );
    return res.type === "future_key" ? res.key : null;
  } catch {
    return null;
  }
}

/** Asks the daemon to warm; resolves with the injection text ("" in silent mode or without a daemon). */
export async function warmFutures(
  cwd: string,
  source: TriggerSource,
  text: string,
  env: Env = process.env,
): Promise<string> {
  if (off(env)) return "";
  try {
    const res = await sendControl(
      socketPath(env),
      { type: "futures_warm", cwd, source, text },
      QUICK_TIMEOUT_MS,
    );
    return res.type === "warmed" ? res.injection : "";
  } catch {
    return "";
  }
}

export async function futuresStatus(env: Env = process.env): Promise<FuturesStats | null> {
  const res = await sendControl(socketPath(env), { type: "futures_status" }, QUICK_TIMEOUT_MS);
  return res.type === "futures_stats" ? res.stats : null;
}
