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
  }).catch((failure: unknown) => {
    throw new Error(passkeyFailureWords(failure, location));
  });
  const saved = await api("/v1/passkeys/register", Registered, { method: "POST", body: { name, response } });
  return saved.id;
}

const IP_HOST = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/**
 * A passkey is bound to the host it was registered on, and never works on an IP address: the browser's own words
 * ("127.0.0.1 is an invalid domain") tell a person nothing, so say what happened and where it works instead.
 */
export function passkeyFailureWords(
  failure: unknown,
  where: { hostname: string; port: string; protocol: string },
) {
  const name = failure instanceof Error || failure instanceof DOMException ? failure.name : "";
  const message =
    failure instanceof Error || failure instanceof DOMException ? failure.message : String(failure);
  if (IP_HOST.test(where.hostname) || /invalid domain/i.test(message)) {
    const named = `${where.protocol}//localhost${where.port ? `:${where.port}` : ""}`;
    return `Passkeys do not work on an IP address (${where.hostname}). Open Airlock by its name (${named} here, or your own domain), pair that browser, and step up there. Nothing was changed.`;
  }
  if (name === "NotAllowedError")
    return `The passkey check was cancelled, or this device has no passkey for ${where.hostname}. A passkey works only on the address it was registered on (a pages.dev address and your own domain are different): open Airlock there. Nothing was changed.`;
  return `The passkey check failed (${name ? `${name}: ` : ""}${message}). Nothing was changed.`;
}

/** A fresh assertion with user verification, traded for a short-lived single-use step-up token. */
export async function stepUp(): Promise<string> {
  const options = await api("/v1/passkeys/step-up/options", Options, { method: "POST", body: {} });
  const response = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  }).catch((failure: unknown) => {
    throw new Error(passkeyFailureWords(failure, location));
  });
  const answer = await api("/v1/passkeys/step-up", StepUp, { method: "POST", body: { response } });
  return answer.token;
}
