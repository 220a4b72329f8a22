// The parity token's wire shapes: minted by an approver (or with the recovery code) for `npm run parity` against a
// deployment; short-lived and read-only (the actions it may take: PARITY_TOKEN_ACTIONS in roles.ts).
import { z } from "zod";
import { RecoveryCodeText } from "./pairing.ts";

/** Minutes a parity token lives: long enough for a release check, short enough to be worth little when leaked. */
export const PARITY_TOKEN_MAX_MINUTES = 60;
export const PARITY_TOKEN_DEFAULT_MINUTES = 15;

const Minutes = z.number().int().min(1).max(PARITY_TOKEN_MAX_MINUTES).default(PARITY_TOKEN_DEFAULT_MINUTES);

export const ParityTokenRequest = z.strictObject({ ttl_minutes: Minutes });
export const RecoveryParityTokenRequest = z.strictObject({
  recovery_code: RecoveryCodeText,
  ttl_minutes: Minutes,
});

export const ParityToken = z.object({
  /** `alkp_<payload>.<mac>`: a bearer token for the API, never a cookie. */
  token: z.string().regex(/^alkp_[A-Za-z0-9_-]+\.[0-9a-f]{64}$/),
  expires_at: z.string(),
  read_only: z.literal(true),
  actions: z.array(z.string()),
});
export type ParityToken = z.infer<typeof ParityToken>;
