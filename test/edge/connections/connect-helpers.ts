// Connecting through the real routes and the OAuth contract server: start on the Worker, consent at the
// provider (the form a person submits), land on the callback with the browser's binding cookie.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { api, bearer, type Paired } from "../helpers.ts";

export const OAUTH = env.TEST_OAUTH_URL;

export interface Started {
  authorizationUrl: URL;
  scopes: string[];
  binding: string;
}

export async function start(
  phone: Paired,
  body: { provider: "google" | "github"; identity: "user" | "bot"; capabilities: string[] },
): Promise<Started> {
  const res = await api("/v1/connections/start", {
    method: "POST",
    headers: bearer(phone.token),
    json: body,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const answer = (await res.json()) as { authorization_url: string; scopes: string[] };
  const cookie = res.headers.get("set-cookie") ?? "";
  const binding = /airlock_oauth_binding=([^;]+)/.exec(cookie)?.[1] ?? "";
  expect(cookie).toContain("HttpOnly");
  expect(cookie).toContain("SameSite=Lax");
  expect(cookie).toContain("Path=/v1/connections/callback");
  return { authorizationUrl: new URL(answer.authorization_url), scopes: answer.scopes, binding };
}

/** The provider's consent: the person allows (or cancels); answers the redirect back to the Worker. */
export async function consent(
  started: Started,
  grant: { account: string; expiresIn?: number; rotate?: boolean; decision?: "allow" | "deny" },
): Promise<URL> {
  const form = new URLSearchParams(started.authorizationUrl.searchParams);
  form.set("x_account", grant.account);
  if (grant.expiresIn !== undefined) form.set("x_expires_in", String(grant.expiresIn));
  if (grant.rotate) form.set("x_rotate", "1");
  form.set("decision", grant.decision ?? "allow");
  const page = await fetch(started.authorizationUrl);
  expect(page.status, await page.clone().text()).toBe(200);
  const res = await fetch(`${started.authorizationUrl.href.split("?")[0]}/consent`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form,
    redirect: "manual",
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location") ?? "");
}

export function callback(redirect: URL, binding: string | null, headers: Record<string, string> = {}) {
  return api(`${redirect.pathname}${redirect.search}`, {
    redirect: "manual",
    headers: { ...(binding === null ? {} : { cookie: `airlock_oauth_binding=${binding}` }), ...headers },
  });
}

/** Start, consent, callback: the connection's id. */
export async function connect(
  phone: Paired,
  body: { provider: "google" | "github"; identity: "user" | "bot"; capabilities: string[] },
  grant: { account: string; expiresIn?: number; rotate?: boolean },
): Promise<string> {
  const started = await start(phone, body);
  const redirect = await consent(started, grant);
  const res = await callback(redirect, started.binding);
  expect(res.status, await res.clone().text()).toBe(303);
  const location = new URL(res.headers.get("location") ?? "", "https://airlock.test");
  expect(location.pathname).toBe("/connections");
  return location.searchParams.get("connected") ?? "";
}

export interface ProviderEvent {
  provider: string;
  endpoint: string;
  account?: string;
  grantType?: string;
  outcome: string;
  token?: string;
}

export async function providerEvents(account: string): Promise<ProviderEvent[]> {
  const res = await fetch(`${OAUTH}/__control/events?account=${encodeURIComponent(account)}`);
  return (await res.json()) as ProviderEvent[];
}

export async function issuedTokens(account: string): Promise<string[]> {
  const res = await fetch(`${OAUTH}/__control/tokens?account=${encodeURIComponent(account)}`);
  return (await res.json()) as string[];
}

export async function revokeAtProviderSide(account: string): Promise<void> {
  await fetch(`${OAUTH}/__control/revoke-account?account=${encodeURIComponent(account)}`, { method: "POST" });
}

let n = 0;
/** An account name no other test uses (the contract server's log is shared). */
export function uniqueAccount(kind: "google" | "github"): string {
  n += 1;
  const tag = `${Date.now().toString(36)}${n}${Math.random().toString(36).slice(2, 6)}`;
  return kind === "google" ? `person-${tag}@example.com` : `octo-${tag}`;
}
