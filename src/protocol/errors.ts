// The one error envelope every Airlock HTTP error uses, and its stable codes.
import { z } from "zod";

export const ErrorCode = z.enum([
  "bad_request",
  "invalid_json",
  "validation_failed",
  "unauthenticated",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "confirmation_required",
  /** A passkey is registered: this action needs a fresh assertion (POST /v1/passkeys/step-up, then retry). */
  "step_up_required",
  /** No passkey of the account signs for this host (its RP ID): details say where they work (PasskeyElsewhere). */
  "passkey_not_for_this_host",
  /** A parity token (read-only) tried anything but a read: answering, revoking, minting, any change. */
  "read_only_token",
  /** The call_id is known with other content (tool, input, session, agent or device): a replay, never answered. */
  "call_conflict",
  /** The prompt's deadline passed; it was denied as deny_timeout and can no longer be answered. */
  "prompt_expired",
  /** Every call in the prompt was withdrawn or abandoned by the agent's side; nothing is waiting for an answer. */
  "prompt_withdrawn",
  "gone",
  "internal",
  "unavailable",
  // The conveyor (docs/conveyor.md).
  "idempotency_conflict",
  "idempotency_key_in_use",
  "unknown_tool",
  "proposal_not_pending",
  "proposal_expired",
  "webhook_headers_missing",
  "webhook_signature_invalid",
  "webhook_timestamp_invalid",
  // The hosted runtime (docs/runtime.md).
  "turn_in_progress",
  /** Chat or a job needs the model provider, and none is configured (AIRLOCK_MODEL_BASE_URL, AIRLOCK_MODEL_MODELS). */
  "model_not_configured",
  "job_finished",
  /** A plan failed the plan validation contract: details lists every reason, by step and field. */
  "plan_invalid",
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorEnvelope = z.object({
  error: z.object({
    code: ErrorCode,
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** One bad field of a 400: `path` is dotted (`agent.id`, `input`), `message` says what is wrong. */
export const FieldProblem = z.object({ path: z.string(), message: z.string() });
export type FieldProblem = z.infer<typeof FieldProblem>;
