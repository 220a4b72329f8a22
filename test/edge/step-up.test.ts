// Passkey step-up at the edge: with no passkey registered guarded actions go through; once one is, device
// revocation, high-risk confirmation tokens, policy edits and turning emergency protection off need a fresh,
// single-use step-up token of the same device; turning protection on never waits for one.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { issueStepUp } from "../../src/edge/auth/step-up.ts";
import { openDb } from "../../src/edge/db/client.ts";
import { api, bearer, errorOf, type Paired, pair } from "./helpers.ts";
import { savePasskey, stepUpHeader } from "./step-up-support.ts";

let phone: Paired;

beforeEach(async () => {
  phone = await pair("browser", "phone");
});

describe("without a passkey", () => {
  it("revokes a device with no step-up", async () => {
    const other = await pair("companion");
    const res = await api(`/v1/devices/${other.deviceId}/revoke`, {
      method: "POST",
      headers: bearer(phone.token),
    });
    expect(res.status).toBe(200);
  });
});

describe("with a passkey registered", () => {
  beforeEach(async () => {
    await savePasskey(phone.userId);
  });

  it("refuses device revocation without a step-up token, and revokes nothing", async () => {
    const other = await pair("companion");
    const res = await api(`/v1/devices/${other.deviceId}/revoke`, {
      method: "POST",
      headers: bearer(phone.token),
    });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe("step_up_required");
    const devices = (await (await api("/v1/devices", { headers: bearer(phone.token) })).json()) as {
      devices: { id: string; revoked_at: string | null }[];
    };
    expect(devices.devices.find((d) => d.id === other.deviceId)?.revoked_at).toBeNull();
  });

  it("accepts a fresh token once, and never twice", async () => {
    const { token } = await issueStepUp(openDb(env.DB), phone);
    const first = await pair("companion");
    const second = await pair("companion");
    const ok = await api(`/v1/devices/${first.deviceId}/revoke`, {
      method: "POST",
      headers: { ...bearer(phone.token), ...stepUpHeader(token) },
    });
    expect(ok.status).toBe(200);
    const replay = await api(`/v1/devices/${second.deviceId}/revoke`, {
      method: "POST",
      headers: { ...bearer(phone.token), ...stepUpHeader(token) },
    });
    expect(replay.status).toBe(403);
  });

  it("refuses another device's token and an expired one", async () => {
    const laptop = await pair("browser", "laptop");
    const theirs = await issueStepUp(openDb(env.DB), laptop);
    const old = await issueStepUp(openDb(env.DB), phone, Date.now() - 10 * 60 * 1000);
    const target = await pair("companion");
    for (const token of [theirs.token, old.token, "stp_forged"]) {
      const res = await api(`/v1/devices/${target.deviceId}/revoke`, {
        method: "POST",
        headers: { ...bearer(phone.token), ...stepUpHeader(token) },
      });
      expect(res.status).toBe(403);
    }
  });

  it("guards policy edits", async () => {
    const res = await api("/v1/settings/policy", {
      method: "PUT",
      headers: bearer(phone.token),
      json: { policy: "version: 1\ndefault_action: allow\nrules: []\n" },
    });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe("step_up_required");
  });

  it("lets protection be turned on at once but needs a step-up to turn it off", async () => {
    const on = await api("/v1/settings/emergency", {
      method: "POST",
      headers: bearer(phone.token),
      json: { readOnly: true, blockedTools: ["deploy"] },
    });
    expect(on.status).toBe(200);
    for (const patch of [{ readOnly: false }, { blockedTools: [] }, { disableHighImpact: false }]) {
      const off = await api("/v1/settings/emergency", {
        method: "POST",
        headers: bearer(phone.token),
        json: patch,
      });
      expect(off.status).toBe(403);
    }
    const still = (await (await api("/v1/settings/emergency", { headers: bearer(phone.token) })).json()) as {
      readOnly: boolean;
      blockedTools: string[];
    };
    expect(still).toMatchObject({ readOnly: true, blockedTools: ["deploy"] });
    const { token } = await issueStepUp(openDb(env.DB), phone);
    const off = await api("/v1/settings/emergency", {
      method: "POST",
      headers: { ...bearer(phone.token), ...stepUpHeader(token) },
      json: { readOnly: false },
    });
    expect(off.status).toBe(200);
  });

  it("needs a browser for passkey ceremonies", async () => {
    const companion = await pair("companion");
    const res = await api("/v1/passkeys/step-up/options", {
      method: "POST",
      headers: bearer(companion.token),
    });
    expect(res.status).toBe(403);
  });

  it("refuses a step-up answer with no challenge in progress", async () => {
    const res = await api("/v1/passkeys/step-up", {
      method: "POST",
      headers: bearer(phone.token),
      json: { response: { id: "x" } },
    });
    expect(res.status).toBe(400);
  });

  it("serves step-up options bound to the host the browser sees", async () => {
    const res = await api("/v1/passkeys/step-up/options", { method: "POST", headers: bearer(phone.token) });
    expect(res.status).toBe(200);
    const options = (await res.json()) as { rpId: string; userVerification: string; challenge: string };
    expect(options.rpId).toBe("airlock.test");
    expect(options.userVerification).toBe("required");
    expect(options.challenge.length).toBeGreaterThan(20);
  });
});
