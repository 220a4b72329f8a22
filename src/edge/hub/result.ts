// RPC results from UserHub to the Worker: errors travel as data so their status and code survive the hop.
import type { ErrorCode } from "../../protocol/errors.ts";

export type HubFailure = {
  ok: false;
  status: 400 | 403 | 404 | 409;
  code: ErrorCode;
  message: string;
  details?: unknown;
};
export type HubResult<T> = { ok: true; value: T } | HubFailure;

export function failure(
  status: HubFailure["status"],
  code: ErrorCode,
  message: string,
  details?: unknown,
): HubFailure {
  return details === undefined
    ? { ok: false, status, code, message }
    : { ok: false, status, code, message, details };
}
