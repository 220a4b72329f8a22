// RPC results from UserHub to the Worker: errors travel as data so their status and code survive the hop.
import { z } from "zod";
import { ProposalView } from "../../protocol/conveyor.ts";
import { ErrorCode } from "../../protocol/errors.ts";

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

// Proposal views carry `unknown` fields (tool results), which the RPC typing cannot follow: parse them.
export const ProposeResult = z.union([
  z.object({ ok: z.literal(true), value: z.object({ view: ProposalView, created: z.boolean() }) }),
  z.object({
    ok: z.literal(false),
    status: z.union([z.literal(400), z.literal(403), z.literal(404), z.literal(409)]),
    code: ErrorCode,
    message: z.string(),
    details: z.unknown().optional(),
  }),
]);
