// Step-up scaffolding shared by the edge tests of guarded actions: the passkey row a verified registration writes
// (the WebAuthn ceremony itself is e2e's, with a virtual authenticator) and a fresh step-up token as its header.
import { env } from "cloudflare:workers";
import { issueStepUp, STEP_UP_HEADER } from "../../src/edge/auth/step-up.ts";
import { openDb } from "../../src/edge/db/client.ts";
import { passkeys } from "../../src/edge/db/schema.ts";

/** Saves a passkey for `userId`; `rpId`/`origin` name the host it was made for (null: saved before RP IDs were kept). */
export async function savePasskey(
  userId: string,
  rpId: string | null = null,
  origin: string | null = null,
): Promise<string> {
  const id = `cred-${crypto.randomUUID()}`;
  await openDb(env.DB).insert(passkeys).values({
    id,
    userId,
    name: "test",
    publicKey: "AA",
    counter: 0,
    rpId,
    origin,
    createdAt: Date.now(),
  });
  return id;
}

export const stepUpHeader = (token: string) => ({ [STEP_UP_HEADER]: token });

/** A fresh step-up issued to `who`'s device, as the header a guarded request carries. */
export const freshStepUp = async (who: { userId: string; deviceId: string }) =>
  stepUpHeader((await issueStepUp(openDb(env.DB), who)).token);
