// Passkeys in the browser (loaded on demand): register one for this approver, and the step-up assertion a guarded
// action needs once one is registered (high-risk confirmation, policy edit, emergency off, device revocation). Where
// no passkey can work (another host, an IP address, a cancelled or missing passkey) the step-up offers the recovery
// code instead, in a sheet that says where the passkey does work (step-up-sheet.ts).
import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";
import { z } from "zod";
import { PasskeyElsewhere } from "../../src/protocol/passkey-hosts.ts";
import { ApiError, api, STEP_UP_HEADER } from "./api.ts";

const Options = z.record(z.string(), z.unknown());
const StepUp = z.object({ token: z.string(), expires_at: z.string() });
const Registered = z.object({ id: z.string() });

type Where = { hostname: string; port: string; protocol: string; pathname: string; search: string };

/** Set while a registration runs: its own step-up must not offer to register yet another passkey. */
let registering = false;

/**
 * Registers a passkey for this account from this browser; user verification is required. Once the account has a
 * passkey, adding one needs a step-up: `stepUpToken` when the caller already has one, else the usual step-up runs.
 */
export async function registerPasskey(name: string, stepUpToken?: string): Promise<string> {
  registering = true;
  try {
    const options = await api("/v1/passkeys/register/options", Options, {
      method: "POST",
      body: {},
      ...(stepUpToken ? { headers: { [STEP_UP_HEADER]: stepUpToken }, stepUpDone: true } : {}),
    });
    const response = await startRegistration({
      optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
    }).catch((failure: unknown) => {
      throw new Error(passkeyFailureWords(failure, location));
    });
    const saved = await api("/v1/passkeys/register", Registered, {
      method: "POST",
      body: { name, response },
    });
    return saved.id;
  } finally {
    registering = false;
  }
}

const IP_HOST = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/** This page's address on another origin (same path and query), e.g. the host where the passkey works. */
function sameAddressOn(origin: string, where: Where): string {
  return `${origin}${where.pathname}${where.search}`;
}

/** The localhost form of an IP address page (dev: 127.0.0.1 → localhost). */
function namedLocalhost(where: Where): string {
  return `${where.protocol}//localhost${where.port ? `:${where.port}` : ""}`;
}

/**
 * A passkey is bound to the host it was registered on, and never works on an IP address: the browser's own words
 * ("127.0.0.1 is an invalid domain") tell a person nothing, so say what happened and where it works instead.
 */
export function passkeyFailureWords(failure: unknown, where: Pick<Where, "hostname" | "port" | "protocol">) {
  const name = failure instanceof Error || failure instanceof DOMException ? failure.name : "";
  const message =
    failure instanceof Error || failure instanceof DOMException ? failure.message : String(failure);
  if (IP_HOST.test(where.hostname) || /invalid domain/i.test(message)) {
    const named = `${where.protocol}//localhost${where.port ? `:${where.port}` : ""}`;
    return `Passkeys do not work on an IP address (${where.hostname}). Open Airlock by its name (${named} here, or your own domain), pair that browser, and step up there.`;
  }
  if (name === "NotAllowedError")
    return `The passkey check was cancelled, or this device has no passkey for ${where.hostname}. A passkey works only on the address it was registered on (a pages.dev address and your own domain are different).`;
  return `The passkey check failed (${name ? `${name}: ` : ""}${message}).`;
}

/** The words for the server's 409 `passkey_not_for_this_host`: where the account's passkeys work. */
export function elsewhereWords(
  details: PasskeyElsewhere,
  where: Where,
): { reason: string; origin: string | null } {
  const origins = [
    ...new Set(details.registered.map((h) => h.origin).filter((o): o is string => Boolean(o))),
  ];
  const places = origins.length ? origins.join(", ") : details.registered.map((h) => h.rp_id).join(", ");
  const first = origins[0] ?? null;
  if (IP_HOST.test(where.hostname))
    return {
      reason: `Passkeys do not work on an IP address (${where.hostname}). Your passkey works on ${places}: open Airlock there (${first ?? namedLocalhost(where)}) and step up there.`,
      origin: first ?? namedLocalhost(where),
    };
  return {
    reason: `Your passkey works on ${places}, not on ${where.hostname}. Open Airlock there and step up, or use your recovery code here.`,
    origin: first,
  };
}

/** The recovery sheet: resolves with a step-up token, or rejects with the reason (shown by the control). */
async function recover(reason: string, openInstead: string | null): Promise<string> {
  const { offerRecovery } = await import("./step-up-sheet.ts");
  return offerRecovery({
    reason,
    openInstead: openInstead ? sameAddressOn(openInstead, location) : null,
    canAddPasskey: !registering && !IP_HOST.test(location.hostname) && browserSupportsWebAuthn(),
    addPasskey: async (token) => {
      await registerPasskey(navigator.userAgent.includes("Mobile") ? "Phone passkey" : "Passkey", token);
      return passkeyAssertion();
    },
  });
}

/** The assertion itself: options, the browser's check, the server's token; throws the browser's failure as is. */
async function passkeyAssertion(): Promise<string> {
  const options = await api("/v1/passkeys/step-up/options", Options, { method: "POST", body: {} });
  const response = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  const answer = await api("/v1/passkeys/step-up", StepUp, { method: "POST", body: { response } });
  return answer.token;
}

/**
 * A fresh assertion with user verification, traded for a short-lived single-use step-up token. Where no passkey can
 * sign (none for this host, an IP address, cancelled, unsupported), the recovery sheet offers the recovery code.
 */
export async function stepUp(): Promise<string> {
  try {
    return await passkeyAssertion();
  } catch (failure) {
    if (failure instanceof ApiError && failure.code === "passkey_not_for_this_host") {
      const details = PasskeyElsewhere.safeParse(failure.details);
      const words = details.success
        ? elsewhereWords(details.data, location)
        : { reason: failure.message, origin: null };
      return recover(words.reason, words.origin);
    }
    // The server refused the assertion, or is unreachable: no recovery code helps with that.
    if (failure instanceof ApiError) throw failure;
    const hostname = location.hostname;
    return recover(
      passkeyFailureWords(failure, location),
      IP_HOST.test(hostname) ? namedLocalhost(location) : null,
    );
  }
}
