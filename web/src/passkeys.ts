// Passkeys in the browser (loaded on demand): register one for this approver, and the step-up assertion a guarded
// action needs once one is registered (high-risk confirmation, policy edit, emergency off, device revocation).
import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";
import { z } from "zod";
import { api } from "./api.ts";

const Options = z.record(z.string(), z.unknown());
const StepUp = z.object({ token: z.string(), expires_at: z.string() });
const Registered = z.object({ id: z.string() });

/** Registers a passkey for this account from this browser; user verification is required. */
export async function registerPasskey(name: string): Promise<string> {
  const options = await api("/v1/passkeys/register/options", Options, { method: "POST", body: {} });
  const response = await startRegistration({
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  const saved = await api("/v1/passkeys/register", Registered, { method: "POST", body: { name, response } });
  return saved.id;
}

/** A fresh assertion with user verification, traded for a short-lived single-use step-up token. */
export async function stepUp(): Promise<string> {
  const options = await api("/v1/passkeys/step-up/options", Options, { method: "POST", body: {} });
  const response = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  const answer = await api("/v1/passkeys/step-up", StepUp, { method: "POST", body: { response } });
  return answer.token;
}
