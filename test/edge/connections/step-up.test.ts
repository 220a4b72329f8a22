// Connecting and revoking a connection are person-only acts: once a passkey is registered, both need a fresh,
// single-use step-up token of the same device (src/edge/auth/step-up.ts), as device revocation and policy edits
// do. A companion never connects or revokes, whatever token it holds.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { api, bearer, errorOf, type Paired, pair } from "../helpers.ts";
import { freshStepUp, savePasskey } from "../step-up-support.ts";
import { connect, providerEvents, uniqueAccount } from "./connect-helpers.ts";

const START = { provider: "google" as const, identity: "user" as const, capabilities: ["mail.read"] };

let phone: Paired;

const states = async () =>
  ((await env.DB.prepare("SELECT COUNT(*) AS n FROM oauth_states").first<{ n: number }>())?.n ?? 0) as number;

const listed = async () =>
  (
    (await (await api("/v1/connections", { headers: bearer(phone.token) })).json()) as {
      connections: { id: string }[];
    }
  ).connections.map((c) => c.id);

beforeEach(async () => {
  phone = await pair("browser", "phone");
  // The file's tests share the owner: each starts without a passkey and registers one where it needs it.
  await env.DB.prepare("DELETE FROM passkeys WHERE user_id = ?").bind(phone.userId).run();
});

describe("with a passkey registered", () => {
  it("start without a step-up is 403 step_up_required and starts nothing; with one it starts, once", async () => {
    await savePasskey(phone.userId);
    const before = await states();
    const refused = await api("/v1/connections/start", {
      method: "POST",
      headers: bearer(phone.token),
      json: START,
    });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).code).toBe("step_up_required");
    expect(refused.headers.get("set-cookie") ?? "").not.toContain("airlock_oauth_binding");
    expect(await states()).toBe(before);

    const headers = { ...bearer(phone.token), ...(await freshStepUp(phone)) };
    const ok = await api("/v1/connections/start", { method: "POST", headers, json: START });
    expect(ok.status).toBe(200);
    expect(await states()).toBe(before + 1);
    // The token was spent by that start: the same one again is refused.
    const again = await api("/v1/connections/start", { method: "POST", headers, json: START });
    expect((await errorOf(again)).code).toBe("step_up_required");
    expect(await states()).toBe(before + 1);
  });

  it("revoke without a step-up is 403 and revokes nothing, here or at the provider; with one it revokes", async () => {
    const account = uniqueAccount("google");
    const id = await connect(phone, START, { account });
    await savePasskey(phone.userId);
    const refused = await api(`/v1/connections/${id}/revoke`, {
      method: "POST",
      headers: bearer(phone.token),
    });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).code).toBe("step_up_required");
    expect(await listed()).toContain(id);
    expect((await providerEvents(account)).filter((e) => e.endpoint === "revoke")).toEqual([]);

    const ok = await api(`/v1/connections/${id}/revoke`, {
      method: "POST",
      headers: { ...bearer(phone.token), ...(await freshStepUp(phone)) },
    });
    expect(ok.status).toBe(200);
    expect(await listed()).not.toContain(id);
  });

  it("another device's step-up token does not count", async () => {
    await savePasskey(phone.userId);
    const other = await pair("browser", "tablet");
    const res = await api("/v1/connections/start", {
      method: "POST",
      headers: { ...bearer(phone.token), ...(await freshStepUp(other)) },
      json: START,
    });
    expect((await errorOf(res)).code).toBe("step_up_required");
  });
});

describe("a companion never connects or revokes", () => {
  it("403 forbidden with or without a passkey, even holding a step-up token of its own or the phone's", async () => {
    const account = uniqueAccount("google");
    const id = await connect(phone, START, { account });
    const companion = await pair("companion", "laptop");
    const attempts = async () => {
      for (const header of [{}, await freshStepUp(companion), await freshStepUp(phone)]) {
        const headers = { ...bearer(companion.token), ...header };
        const started = await api("/v1/connections/start", { method: "POST", headers, json: START });
        expect(started.status).toBe(403);
        expect((await errorOf(started)).code).toBe("forbidden");
        const revoked = await api(`/v1/connections/${id}/revoke`, { method: "POST", headers });
        expect(revoked.status).toBe(403);
        expect((await errorOf(revoked)).code).toBe("forbidden");
      }
    };
    const before = await states();
    await attempts();
    await savePasskey(phone.userId);
    await attempts();
    expect(await states()).toBe(before);
    expect(await listed()).toContain(id);
    expect((await providerEvents(account)).filter((e) => e.endpoint === "revoke")).toEqual([]);
  });
});
