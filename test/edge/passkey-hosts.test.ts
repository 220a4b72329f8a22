// Passkeys across hosts at the edge: the related-origins document, the RP a request's host uses, the 409 that says
// where the account's passkeys work, and the recovery code as a one-time step-up (emergency off, a passkey for a new
// host). Regression tests per "never": a companion never turns a switch off; a used recovery code never works again.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/edge/app.ts";
import { issueStepUp } from "../../src/edge/auth/step-up.ts";
import { openDb } from "../../src/edge/db/client.ts";
import {
  ADMIN,
  api,
  bearer,
  errorOf,
  type Paired,
  pair,
  recoveryCode,
  rememberRecoveryCode,
} from "./helpers.ts";
import { savePasskey } from "./step-up-support.ts";

const app = createApp();

/** The Worker's app with some variables changed, as a deployment configured that way would answer. */
function withVars(vars: Record<string, string>, url: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  return app.fetch(new Request(url, { ...init, headers, body }), { ...env, ...vars });
}

const SHARED = {
  AIRLOCK_PASSKEY_RP_ID: "airlock.example",
  AIRLOCK_PASSKEY_ORIGINS:
    "https://airlock-dashboard.pages.dev, https://airlock.example.workers.dev/ignored-path, not a url",
};

async function emergency(token: string) {
  const res = await api("/v1/settings/emergency", { headers: bearer(token) });
  return (await res.json()) as { readOnly: boolean; disableHighImpact: boolean; blockedTools: string[] };
}

let ip = 0;
/** Each test its own client address, so one test's wrong codes never lock another out. */
const client = () => ({ "cf-connecting-ip": `198.51.100.${(ip++ % 250) + 1}` });

function recoveryStepUp(token: string, recovery_code: string, from = client()) {
  return api("/v1/recovery/step-up", {
    method: "POST",
    headers: { ...bearer(token), ...from },
    json: { recovery_code },
  });
}

/** A known recovery code at the start of each test: these tests use codes up, so the helper's memory goes stale. */
async function freshRecoveryCode(): Promise<void> {
  let res = await api("/v1/bootstrap", { method: "POST", headers: { authorization: ADMIN } });
  if (res.status === 409)
    res = await api("/v1/admin/recovery-code", { method: "POST", headers: { authorization: ADMIN } });
  rememberRecoveryCode(((await res.json()) as { recovery_code: string }).recovery_code);
}

let phone: Paired;
beforeEach(async () => {
  await freshRecoveryCode();
  phone = await pair("browser", "phone");
});

describe("GET /.well-known/webauthn", () => {
  it("is a 404 when no shared RP ID is configured", async () => {
    const res = await api("/.well-known/webauthn");
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe("not_found");
  });

  it("lists the configured related origins, normalised, as public JSON", async () => {
    const res = await withVars(SHARED, "https://airlock.example/.well-known/webauthn");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(await res.json()).toEqual({
      origins: ["https://airlock-dashboard.pages.dev", "https://airlock.example.workers.dev"],
    });
  });
});

describe("the relying party of a host", () => {
  const optionsAt = async (url: string) => {
    const res = await withVars(SHARED, url, { method: "POST", headers: bearer(phone.token) });
    expect(res.status).toBe(200);
    return ((await res.json()) as { rp: { id: string } }).rp.id;
  };

  it("is the shared RP ID on a related origin and under its domain, and the host itself elsewhere", async () => {
    expect(await optionsAt("https://airlock-dashboard.pages.dev/v1/passkeys/register/options")).toBe(
      "airlock.example",
    );
    expect(await optionsAt("https://phone.airlock.example/v1/passkeys/register/options")).toBe(
      "airlock.example",
    );
    expect(await optionsAt("https://other.example/v1/passkeys/register/options")).toBe("other.example");
  });
});

describe("a host where none of the account's passkeys works", () => {
  it("says where they work (409 passkey_not_for_this_host) instead of offering nothing", async () => {
    await savePasskey(phone.userId, "localhost", "http://localhost:8787");
    const res = await api("/v1/passkeys/step-up/options", { method: "POST", headers: bearer(phone.token) });
    expect(res.status).toBe(409);
    const error = await errorOf(res);
    expect(error.code).toBe("passkey_not_for_this_host");
    expect(error.details).toEqual({
      rp_id: "airlock.test",
      registered: [{ rp_id: "localhost", origin: "http://localhost:8787" }],
    });
    expect(error.message).toContain("http://localhost:8787");
  });

  it("offers only the passkeys made for this host (and older ones whose host is unknown)", async () => {
    await savePasskey(phone.userId, "localhost", "http://localhost:8787");
    const here = await savePasskey(phone.userId, "airlock.test", "https://airlock.test");
    const legacy = await savePasskey(phone.userId, null, null);
    const res = await api("/v1/passkeys/step-up/options", { method: "POST", headers: bearer(phone.token) });
    expect(res.status).toBe(200);
    const options = (await res.json()) as { allowCredentials: { id: string }[] };
    expect(options.allowCredentials.map((c) => c.id).sort()).toEqual([here, legacy].sort());
  });

  it("shares passkeys between related origins", async () => {
    await savePasskey(phone.userId, "airlock.example", "https://airlock.example");
    const res = await withVars(SHARED, "https://airlock-dashboard.pages.dev/v1/passkeys/step-up/options", {
      method: "POST",
      headers: bearer(phone.token),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { rpId: string }).rpId).toBe("airlock.example");
  });

  it("needs a step-up to add a passkey once one exists; the recovery code's does", async () => {
    await savePasskey(phone.userId, "localhost", "http://localhost:8787");
    const refused = await api("/v1/passkeys/register/options", {
      method: "POST",
      headers: bearer(phone.token),
    });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).code).toBe("step_up_required");
    const stepped = await recoveryStepUp(phone.token, await recoveryCode());
    expect(stepped.status).toBe(201);
    const body = (await stepped.json()) as { token: string; recovery_code: string };
    rememberRecoveryCode(body.recovery_code);
    const allowed = await api("/v1/passkeys/register/options", {
      method: "POST",
      headers: { ...bearer(phone.token), "x-airlock-step-up": body.token },
    });
    expect(allowed.status).toBe(200);
    expect(((await allowed.json()) as { rp: { id: string } }).rp.id).toBe("airlock.test");
  });
});

describe("the recovery code as a one-time step-up", () => {
  beforeEach(async () => {
    await savePasskey(phone.userId, "localhost", "http://localhost:8787");
    const on = await api("/v1/settings/emergency", {
      method: "POST",
      headers: bearer(phone.token),
      json: { readOnly: true, disableHighImpact: true, blockedTools: ["Bash"] },
    });
    // On never waits for a passkey, even with one registered.
    expect(on.status).toBe(200);
  });

  it("turns read-only mode off, and the code it used never works again", async () => {
    const used = await recoveryCode();
    const stepped = await recoveryStepUp(phone.token, used);
    expect(stepped.status).toBe(201);
    const body = (await stepped.json()) as { token: string; expires_at: string; recovery_code: string };
    rememberRecoveryCode(body.recovery_code);
    expect(body.token).toMatch(/^stp_/);
    expect(body.recovery_code.replaceAll("-", "")).not.toBe(used.replaceAll("-", ""));
    const off = await api("/v1/settings/emergency", {
      method: "POST",
      headers: { ...bearer(phone.token), "x-airlock-step-up": body.token },
      json: { readOnly: false },
    });
    expect(off.status).toBe(200);
    expect((await emergency(phone.token)).readOnly).toBe(false);
    // Audited as this device's step-up, by the recovery code; the code itself is never in the row.
    const audit = (await (
      await api("/v1/audit?event=auth.step_up", { headers: bearer(phone.token) })
    ).json()) as {
      events: { device_id?: string | null; details?: unknown }[];
    };
    const byCode = audit.events.filter(
      (e) =>
        e.device_id === phone.deviceId &&
        (e.details as { via?: string } | undefined)?.via === "recovery_code",
    );
    expect(byCode, JSON.stringify(audit.events)).toHaveLength(1);
    expect(JSON.stringify(audit.events)).not.toContain(used.replaceAll("-", "").slice(0, 8));

    // Never twice: as a step-up, and for pairing.
    const again = await recoveryStepUp(phone.token, used);
    expect(again.status).toBe(401);
    const pairing = await api("/v1/recovery/pairing-code", {
      method: "POST",
      headers: client(),
      json: { recovery_code: used },
    });
    expect(pairing.status).toBe(401);
    // The token was single use as well.
    const replay = await api("/v1/settings/emergency", {
      method: "POST",
      headers: { ...bearer(phone.token), "x-airlock-step-up": body.token },
      json: { disableHighImpact: false },
    });
    expect((await errorOf(replay)).code).toBe("step_up_required");
    // The new code works.
    expect((await recoveryStepUp(phone.token, body.recovery_code)).status).toBe(201);
  });

  it("lets only one of two racing requests use one code", async () => {
    const code = await recoveryCode();
    const answers = await Promise.all([recoveryStepUp(phone.token, code), recoveryStepUp(phone.token, code)]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 401]);
  });

  it("refuses a wrong code with a 401 and changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[0-9A-HJKMNP-TV-Z]{24}$/), async (guess) => {
        const real = await recoveryCode();
        fc.pre(guess !== real.replaceAll("-", ""));
        const res = await recoveryStepUp(phone.token, guess);
        expect(res.status).toBe(401);
        expect((await errorOf(res)).code).toBe("unauthenticated");
      }),
      { numRuns: 8 },
    );
    expect(await emergency(phone.token)).toMatchObject({ readOnly: true, disableHighImpact: true });
    // The real code was not used up by the wrong ones.
    const ok = await recoveryStepUp(phone.token, await recoveryCode());
    expect(ok.status).toBe(201);
    rememberRecoveryCode(((await ok.json()) as { recovery_code: string }).recovery_code);
  });

  it("is rate-limited: after 10 wrong codes from one client even the right one waits (429)", async () => {
    const from = client();
    for (let i = 0; i < 10; i++)
      expect((await recoveryStepUp(phone.token, `0000-0000-0000-0000-0000-000${i % 10}`, from)).status).toBe(
        401,
      );
    const locked = await recoveryStepUp(phone.token, await recoveryCode(), from);
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await emergency(phone.token)).readOnly).toBe(true);
  });

  it("never lets a companion use it, and leaves the code usable", async () => {
    const companion = await pair("companion");
    const res = await recoveryStepUp(companion.token, await recoveryCode());
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe("forbidden");
    const ok = await recoveryStepUp(phone.token, await recoveryCode());
    expect(ok.status).toBe(201);
    rememberRecoveryCode(((await ok.json()) as { recovery_code: string }).recovery_code);
  });
});

describe("a companion and the emergency switches", () => {
  it("never turns a switch off or unblocks a tool, even holding a step-up token of its own device", async () => {
    const companion = await pair("companion");
    await api("/v1/settings/emergency", {
      method: "POST",
      headers: bearer(phone.token),
      json: { readOnly: true, disableHighImpact: true, blockedTools: ["Bash"] },
    });
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            readOnly: fc.boolean(),
            disableHighImpact: fc.boolean(),
            blockedTools: fc.subarray(["Bash", "Write", "mcp__github__*"]),
          },
          { requiredKeys: [] },
        ),
        fc.boolean(),
        async (patch, withToken) => {
          const { token } = await issueStepUp(openDb(env.DB), companion);
          const res = await api("/v1/settings/emergency", {
            method: "POST",
            headers: { ...bearer(companion.token), ...(withToken ? { "x-airlock-step-up": token } : {}) },
            json: patch,
          });
          expect(res.status).toBe(403);
          expect((await errorOf(res)).code).toBe("forbidden");
        },
      ),
      { numRuns: 25 },
    );
    expect(await emergency(phone.token)).toEqual({
      readOnly: true,
      disableHighImpact: true,
      blockedTools: ["Bash"],
    });
  });
});

describe("chat with no model configured", () => {
  it("answers 503 model_not_configured, says what to set, and stores nothing", async () => {
    const created = await api("/v1/chat/threads", { method: "POST", headers: bearer(phone.token), json: {} });
    const { thread } = (await created.json()) as { thread: { id: string } };
    const res = await withVars(
      { AIRLOCK_MODEL_BASE_URL: "", AIRLOCK_MODEL_MODELS: "" },
      `https://airlock.test/v1/chat/threads/${thread.id}/messages`,
      { method: "POST", headers: bearer(phone.token), json: { content: "hello" } },
    );
    expect(res.status).toBe(503);
    const error = await errorOf(res);
    expect(error.code).toBe("model_not_configured");
    expect(error.message).toContain("AIRLOCK_MODEL_BASE_URL");
    const page = await api(`/v1/chat/threads/${thread.id}/messages`, { headers: bearer(phone.token) });
    expect(((await page.json()) as { messages: unknown[] }).messages).toEqual([]);
  });
});

describe("GET /v1/passkeys › signs_here (the dashboard offers app lock only where a passkey signs)", () => {
  it("says which passkeys can sign a step-up on the host the list is asked from", async () => {
    const here = await savePasskey(phone.userId, "phone.example", "https://phone.example");
    const elsewhere = await savePasskey(phone.userId, "laptop.example", "https://laptop.example");
    const listAt = async (url: string) => {
      const res = await withVars({}, url, { headers: bearer(phone.token) });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { passkeys: { id: string; signs_here: boolean }[] };
      return Object.fromEntries(body.passkeys.map((p) => [p.id, p.signs_here]));
    };
    const onPhone = await listAt("https://phone.example/v1/passkeys");
    expect([onPhone[here], onPhone[elsewhere]]).toEqual([true, false]);
    const onLaptop = await listAt("https://laptop.example/v1/passkeys");
    expect([onLaptop[here], onLaptop[elsewhere]]).toEqual([false, true]);
    // A shared RP ID: a host under it signs with a passkey saved for that RP ID, not with another host's.
    const shared = await savePasskey(phone.userId, "airlock.example", "https://airlock.example");
    const res = await withVars(SHARED, "https://app.airlock.example/v1/passkeys", {
      headers: bearer(phone.token),
    });
    const body = (await res.json()) as { passkeys: { id: string; signs_here: boolean }[] };
    const signs = Object.fromEntries(body.passkeys.map((p) => [p.id, p.signs_here]));
    expect([signs[shared], signs[here]]).toEqual([true, false]);
  });
});
