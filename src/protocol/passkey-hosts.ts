// Passkeys across hosts: the related-origins document (WebAuthn Level 3, §5.11), where the account's passkeys work
// when none works on this host, and the recovery code traded for one step-up.
import { z } from "zod";
import { RecoveryCodeText } from "./pairing.ts";

/** `GET /.well-known/webauthn` on the RP ID's host: the other origins allowed to use that one RP ID. */
export const RelatedOrigins = z.object({ origins: z.array(z.string()) });
export type RelatedOrigins = z.infer<typeof RelatedOrigins>;

/** Where a passkey of the account works: its RP ID, and the origin it was registered on (null if not kept). */
export const PasskeyHost = z.object({ rp_id: z.string().nullable(), origin: z.string().nullable() });
export type PasskeyHost = z.infer<typeof PasskeyHost>;

/** The details of a 409 `passkey_not_for_this_host`: this host's RP ID and where the account's passkeys work. */
export const PasskeyElsewhere = z.object({ rp_id: z.string(), registered: z.array(PasskeyHost) });
export type PasskeyElsewhere = z.infer<typeof PasskeyElsewhere>;

/** The recovery code in place of a passkey, for one guarded action; it is consumed (replaced) on success. */
export const RecoveryStepUpRequest = z.strictObject({ recovery_code: RecoveryCodeText });

/** A step-up token like a passkey's, and the new recovery code (shown only here: the presented one is used up). */
export const RecoveryStepUp = z.object({
  token: z.string(),
  expires_at: z.string(),
  recovery_code: z.string(),
});
export type RecoveryStepUp = z.infer<typeof RecoveryStepUp>;
