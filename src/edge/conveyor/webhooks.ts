// Verifying a delivery by the Standard Webhooks scheme with its reference library: webhook-id,
// webhook-timestamp (5-minute tolerance), webhook-signature (space-separated `v1,<base64>` values, so a
// sender can sign with the old and the new secret during rotation), constant-time comparison.
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { z } from "zod";

export const MAX_DELIVERY_BYTES = 64 * 1024;

export const DeliveryHeaders = z.object({
  "webhook-id": z
    .string()
    .min(1)
    .max(256)
    .regex(/^[\x21-\x7e]+$/, "printable ASCII"),
  "webhook-timestamp": z.string().regex(/^\d{1,12}$/, "whole seconds since the epoch"),
  "webhook-signature": z.string().min(1).max(4096),
});
export type DeliveryHeaders = z.infer<typeof DeliveryHeaders>;

export type Verification =
  | { ok: true; secretIndex: number }
  | { ok: false; reason: "signature" | "timestamp"; message: string };

/**
 * Tries each valid secret (the current one, then the previous during its grace period). A timestamp
 * outside the tolerance fails whatever the signature, before any HMAC is compared.
 */
export function verifyDelivery(payload: string, headers: DeliveryHeaders, secrets: string[]): Verification {
  let last: Verification = { ok: false, reason: "signature", message: "no secret to verify with" };
  for (const [index, secret] of secrets.entries()) {
    try {
      new Webhook(secret).verify(payload, headers, { jsonParse: false });
      return { ok: true, secretIndex: index };
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      if (/timestamp/i.test(error.message)) {
        return {
          ok: false,
          reason: "timestamp",
          message: "webhook-timestamp is more than 5 minutes from now",
        };
      }
      last = { ok: false, reason: "signature", message: "no webhook-signature matches this hook's secret" };
    }
  }
  return last;
}
