// Signed webhooks, with the Standard Webhooks reference library (`standardwebhooks`) as the signer:
// valid, bad signature, old timestamp, replayed id, rotated secret, oversize; nothing starts on rejection.
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type { HookWithSecret, ProposalView } from "../../../src/protocol/conveyor.ts";
import { device } from "../approvals-helpers.ts";
import { api, errorOf } from "../helpers.ts";
import { auditOf, TARGET } from "./support.ts";

type Device = Awaited<ReturnType<typeof device>>;

const action = {
  type: "proposal",
  tool: "http.request",
  identity: "bot",
  args: { method: "POST", url: `${TARGET}/effect` },
  justification: "CI finished: tell the deploy service.",
};

async function createHook(d: Device, body: unknown = { name: "ci", action }): Promise<HookWithSecret> {
  const res = await d.post("/v1/hooks", body);
  expect(res.status).toBe(201);
  return (await res.json()) as HookWithSecret;
}

function signed(secret: string | string[], payload: string, opts: { id?: string; at?: Date } = {}) {
  const id = opts.id ?? `msg_${crypto.randomUUID()}`;
  const at = opts.at ?? new Date();
  const secrets = Array.isArray(secret) ? secret : [secret];
  const signature = secrets.map((s) => new Webhook(s).sign(id, at, payload)).join(" ");
  return {
    id,
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signature,
    },
  };
}

function deliver(hookId: string, payload: string, headers: Record<string, string>) {
  return api(`/v1/hooks/${hookId}`, { method: "POST", headers, body: payload });
}

async function proposals(d: Device): Promise<ProposalView[]> {
  return ((await (await d.get("/v1/proposals")).json()) as { proposals: ProposalView[] }).proposals;
}

describe("managing hooks", () => {
  it("only an approver device may create hooks; the secret is shown once and stored encrypted", async () => {
    const d = await device();
    const refused = await d.companion.post("/v1/hooks", { name: "ci" });
    expect(refused.status).toBe(403);
    const hook = await createHook(d);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(hook.url).toMatch(new RegExp(`/v1/hooks/${hook.id}$`));
    const listed = (await (await d.get("/v1/hooks")).json()) as { hooks: Record<string, unknown>[] };
    expect(listed.hooks).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(hook.secret);
    const stored = await env.DB.prepare("SELECT * FROM hooks WHERE id = ?").bind(hook.id).first();
    expect(JSON.stringify(stored)).not.toContain(hook.secret.slice(6));
    const audit = await auditOf(d.userId, hook.id);
    expect(JSON.stringify(audit)).not.toContain(hook.secret.slice(6));
  });

  it("refuses an action whose args do not fit its tool", async () => {
    const d = await device();
    const res = await d.post("/v1/hooks", {
      name: "bad",
      action: { ...action, args: { method: "GET", url: TARGET } },
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe("validation_failed");
  });
});

describe("deliveries", () => {
  it("a valid delivery starts the hook's action as a proposal (never the effect itself), audited", async () => {
    const d = await device();
    const hook = await createHook(d);
    const payload = JSON.stringify({ status: "success", ref: "main" });
    const { id, headers } = signed(hook.secret, payload);
    const res = await deliver(hook.id, payload, headers);
    expect(res.status).toBe(202);
    const body = (await res.json()) as { proposal_id: string; duplicate: boolean };
    expect(body.duplicate).toBe(false);
    const [proposal] = await proposals(d);
    expect(proposal).toMatchObject({
      id: body.proposal_id,
      state: "PENDING",
      source: { kind: "webhook", ref: hook.id },
    });
    const events = (await auditOf(d.userId, hook.id)).map((e) => e.event);
    expect(events).toEqual(["webhook.hook_created", "webhook.received"]);
    const received = (await auditOf(d.userId, hook.id)).find((e) => e.event === "webhook.received");
    expect(JSON.parse(received?.details ?? "{}")).toMatchObject({ webhook_id: id });
  });

  it("a hook without an action only records verified deliveries", async () => {
    const d = await device();
    const hook = await createHook(d, { name: "log only" });
    const payload = "{}";
    const res = await deliver(hook.id, payload, signed(hook.secret, payload).headers);
    expect(res.status).toBe(202);
    expect(((await res.json()) as { proposal_id: unknown }).proposal_id).toBeNull();
    expect(await proposals(d)).toHaveLength(0);
  });

  it.each([
    [
      "a bad signature",
      401,
      "webhook_signature_invalid",
      "bad signature",
      (_s: string, p: string) => signed(`whsec_${btoa("x".repeat(32))}`, p).headers,
    ],
    [
      "a tampered body",
      401,
      "webhook_signature_invalid",
      "bad signature",
      (s: string, p: string) => signed(s, `${p} `).headers,
    ],
    [
      "a timestamp 6 minutes old",
      401,
      "webhook_timestamp_invalid",
      "timestamp out of tolerance",
      (s: string, p: string) => signed(s, p, { at: new Date(Date.now() - 6 * 60_000) }).headers,
    ],
    [
      "a timestamp 6 minutes ahead",
      401,
      "webhook_timestamp_invalid",
      "timestamp out of tolerance",
      (s: string, p: string) => signed(s, p, { at: new Date(Date.now() + 6 * 60_000) }).headers,
    ],
    [
      "missing headers",
      400,
      "webhook_headers_missing",
      "missing or malformed headers",
      () => ({ "content-type": "application/json" }),
    ],
    [
      "a malformed timestamp",
      400,
      "webhook_headers_missing",
      "missing or malformed headers",
      (s: string, p: string) => ({ ...signed(s, p).headers, "webhook-timestamp": "12abc" }),
    ],
    [
      "a signature of another scheme version",
      401,
      "webhook_signature_invalid",
      "bad signature",
      (s: string, p: string) => {
        const h = signed(s, p).headers;
        return { ...h, "webhook-signature": h["webhook-signature"].replace("v1,", "v1a,") };
      },
    ],
  ])("rejects %s (%i %s) and starts nothing", async (_name, status, code, reason, make) => {
    const d = await device();
    const hook = await createHook(d);
    const payload = JSON.stringify({ n: 1 });
    const res = await deliver(hook.id, payload, make(hook.secret, payload) as Record<string, string>);
    expect(res.status).toBe(status);
    expect((await errorOf(res)).code).toBe(code);
    expect(await proposals(d)).toHaveLength(0);
    const rejected = (await auditOf(d.userId, hook.id)).filter((e) => e.event === "webhook.rejected");
    expect(rejected.map((e) => JSON.parse(e.details).reason)).toEqual([reason]);
  });

  it("a replayed webhook-id is answered as a duplicate and starts nothing more", async () => {
    const d = await device();
    const hook = await createHook(d);
    const payload = JSON.stringify({ n: 2 });
    const first = signed(hook.secret, payload);
    const a = (await (await deliver(hook.id, payload, first.headers)).json()) as { proposal_id: string };
    // The same id again, even re-signed with a fresh timestamp: no second proposal.
    for (const headers of [first.headers, signed(hook.secret, payload, { id: first.id }).headers]) {
      const res = await deliver(hook.id, payload, headers);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ duplicate: true, proposal_id: a.proposal_id });
    }
    expect(await proposals(d)).toHaveLength(1);
    expect((await auditOf(d.userId, hook.id)).filter((e) => e.event === "webhook.duplicate")).toHaveLength(2);
  });

  it("rotation keeps the old secret valid for its grace period; grace 0 ends it at once", async () => {
    const d = await device();
    const hook = await createHook(d);
    const rotated = (await (
      await d.post(`/v1/hooks/${hook.id}/rotate`, { grace_seconds: 3600 })
    ).json()) as HookWithSecret;
    expect(rotated.secret).not.toBe(hook.secret);
    expect(rotated.previous_secret_valid_until).not.toBeNull();
    const payload = "{}";
    expect((await deliver(hook.id, payload, signed(hook.secret, payload).headers)).status).toBe(202);
    expect((await deliver(hook.id, payload, signed(rotated.secret, payload).headers)).status).toBe(202);
    // During rotation a sender may sign with both; either matching is enough.
    expect(
      (await deliver(hook.id, payload, signed([hook.secret, rotated.secret], payload).headers)).status,
    ).toBe(202);
    const again = (await (
      await d.post(`/v1/hooks/${hook.id}/rotate`, { grace_seconds: 0 })
    ).json()) as HookWithSecret;
    expect((await deliver(hook.id, payload, signed(rotated.secret, payload).headers)).status).toBe(401);
    expect((await deliver(hook.id, payload, signed(hook.secret, payload).headers)).status).toBe(401);
    expect((await deliver(hook.id, payload, signed(again.secret, payload).headers)).status).toBe(202);
  });

  it("refuses a body over 64 KiB with 413 and starts nothing", async () => {
    const d = await device();
    const hook = await createHook(d);
    const payload = JSON.stringify({ blob: "x".repeat(70 * 1024) });
    const res = await deliver(hook.id, payload, signed(hook.secret, payload).headers);
    expect(res.status).toBe(413);
    expect(await proposals(d)).toHaveLength(0);
  });

  it("unknown and deleted hooks are 404; a deleted hook never verifies again", async () => {
    const d = await device();
    const hook = await createHook(d);
    const payload = "{}";
    expect((await deliver("hk_AAAAAAAAAAAAAAAA", payload, signed(hook.secret, payload).headers)).status).toBe(
      404,
    );
    expect(
      (await api(`/v1/hooks/${hook.id}`, { method: "DELETE", headers: d.approver.headers })).status,
    ).toBe(200);
    expect((await deliver(hook.id, payload, signed(hook.secret, payload).headers)).status).toBe(404);
    expect(await proposals(d)).toHaveLength(0);
  });

  it("a webhook-started write waits for a person even when a grant would cover it", async () => {
    const d = await device();
    // An earlier "allow always" on exactly this scope...
    const first = await d.post("/v1/proposals", {
      tool: "http.request",
      identity: "bot",
      idempotency_key: `grant-${crypto.randomUUID()}`,
      justification: "seed a grant",
      args: action.args,
    });
    const seeded = ((await first.json()) as { proposal: ProposalView }).proposal;
    await d.post(`/v1/approvals/${seeded.id}/approve`, { scope: "always" });
    // ...does not let an untrusted delivery run it unasked.
    const hook = await createHook(d);
    const payload = "{}";
    const res = await deliver(hook.id, payload, signed(hook.secret, payload).headers);
    const { proposal_id } = (await res.json()) as { proposal_id: string };
    const proposal = (
      (await (await d.get(`/v1/proposals/${proposal_id}`)).json()) as { proposal: ProposalView }
    ).proposal;
    expect(proposal.state).toBe("PENDING");
  });
});
