// Answering from the lock screen: a prompt's notification carries an answer token that may decide only that one
// prompt, "once", from the device the push went to, until the prompt's deadline. Each "never" is a test.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mintAnswerToken, verifyAnswerToken } from "../../src/edge/push/answer-token.ts";
import { lockScreenAnswerable, promptPayload } from "../../src/edge/push/payload.ts";
import { CapabilityPrompt } from "../../src/protocol/prompts.ts";
import { type Device, device, pendingPrompts, request } from "./approvals-helpers.ts";
import { api, errorOf } from "./helpers.ts";

const answer = (json: unknown) => api("/v1/push/answer", { method: "POST", json });

async function pendingOf(d: Device): Promise<CapabilityPrompt> {
  const res = await d.get("/v1/approvals?status=pending");
  const { approvals } = (await res.json()) as { approvals: unknown[] };
  const [first] = approvals.map((a) => CapabilityPrompt.parse(a));
  if (!first) throw new Error("no pending prompt");
  return first;
}

async function tokenFor(d: Device, prompt: CapabilityPrompt, deviceId = d.approver.deviceId) {
  return mintAnswerToken(env.TOKEN_PEPPER, {
    userId: d.userId,
    deviceId,
    promptId: prompt.promptId,
    expiresAt: Date.parse(prompt.expiresAt),
  });
}

async function decisionOf(d: Device, callId: string) {
  const res = await d.companion.get(`/v1/decisions/${callId}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("answering from a notification's buttons", () => {
  it("Allow once with the token decides that prompt's call, as the phone that got the push", async () => {
    const d = await device();
    const call = request();
    await d.decide(call);
    const prompt = await pendingOf(d);
    const res = await answer({ token: await tokenFor(d, prompt), decision: "allow_once" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ prompt_id: prompt.promptId, resolution: "allow_once" });
    expect((await decisionOf(d, call.call_id)).body).toMatchObject({
      decision: "allow",
      resolution: "allow_once",
    });
    const resolved = (await (await d.get("/v1/approvals?status=resolved")).json()) as {
      approvals: { promptId: string; decidedBy?: { deviceId?: string } }[];
    };
    const mine = resolved.approvals.find((a) => a.promptId === prompt.promptId);
    expect(JSON.stringify(mine)).toContain(d.approver.deviceId);
  });

  it("Deny with the token denies it; the same token again finds it answered (409), never a second decision", async () => {
    const d = await device();
    const call = request();
    await d.decide(call);
    const token = await tokenFor(d, await pendingOf(d));
    expect((await answer({ token, decision: "deny_once" })).status).toBe(200);
    const replay = await answer({ token, decision: "allow_once" });
    expect(replay.status).toBe(409);
    expect((await decisionOf(d, call.call_id)).body).toMatchObject({ decision: "deny" });
  });

  it("never answers another prompt: a token whose prompt id was changed is refused", async () => {
    const d = await device();
    const first = request();
    await d.decide(first);
    const prompt = await pendingOf(d);
    const second = request({ tool: "grep", input: { pattern: "x", path: "/work/repo/lib" } });
    await d.decide(second);
    const other = (await pendingPrompts(d.get)).find((p) => p.promptId !== prompt.promptId);
    if (!other) throw new Error("expected two prompts");
    const token = await tokenFor(d, prompt);
    const [body, signature] = token.slice(4).split(".");
    const claims = JSON.parse(atob((body ?? "").replaceAll("-", "+").replaceAll("_", "/"))) as object;
    const swapped = btoa(JSON.stringify({ ...claims, p: other.promptId }))
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replace(/=+$/, "");
    const res = await answer({ token: `pna_${swapped}.${signature}`, decision: "allow_once" });
    expect(res.status).toBe(403);
    expect((await decisionOf(d, second.call_id)).status).toBe(202);
    expect((await decisionOf(d, first.call_id)).status).toBe(202);
  });

  it("never answers after the prompt's deadline passed (the token dies with it)", async () => {
    const d = await device();
    const call = request();
    await d.decide(call);
    const prompt = await pendingOf(d);
    const token = await mintAnswerToken(env.TOKEN_PEPPER, {
      userId: d.userId,
      deviceId: d.approver.deviceId,
      promptId: prompt.promptId,
      expiresAt: Date.now() - 1,
    });
    const res = await answer({ token, decision: "allow_once" });
    expect(res.status).toBe(403);
    expect((await decisionOf(d, call.call_id)).status).toBe(202);
  });

  it("never answers from a removed device, nor with a token minted for a companion", async () => {
    const d = await device();
    const call = request();
    await d.decide(call);
    const prompt = await pendingOf(d);
    const companionToken = await tokenFor(d, prompt, d.deviceId);
    expect((await answer({ token: companionToken, decision: "allow_once" })).status).toBe(403);
    const token = await tokenFor(d, prompt);
    // The phone is removed (from itself here: it is the user's only approver).
    expect((await d.post(`/v1/devices/${d.approver.deviceId}/revoke`)).status).toBe(200);
    const res = await answer({ token, decision: "allow_once" });
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({ code: "forbidden" });
    expect((await decisionOf(d, call.call_id)).status).toBe(202);
  });

  it("never allows a high-risk call: no buttons on its push, and a minted token's allow needs the confirmation", async () => {
    const d = await device();
    const call = request({ tool: "bash", input: { command: "npm publish" } });
    await d.decide(call);
    const prompt = await pendingOf(d);
    expect(prompt.risk).toBe("high");
    expect(lockScreenAnswerable(prompt)).toBe(false);
    expect(promptPayload(prompt, 1).actions).toBeUndefined();
    const res = await answer({ token: await tokenFor(d, prompt), decision: "allow_once" });
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({ code: "confirmation_required" });
    expect((await decisionOf(d, call.call_id)).status).toBe(202);
  });

  it("never decides more than once: always-answers are not a lock-screen decision", async () => {
    const res = await answer({ token: "pna_x.y", decision: "allow_always" });
    expect(res.status).toBe(400);
  });
});

describe("the answer token", () => {
  it("any change to a valid token makes it invalid", async () => {
    const claims = { userId: "usr_a", deviceId: "dev_b", promptId: "prm_c", expiresAt: Date.now() + 60_000 };
    const token = await mintAnswerToken(env.TOKEN_PEPPER, claims);
    expect(await verifyAnswerToken(env.TOKEN_PEPPER, token)).toEqual(claims);
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: token.length - 1 }),
        fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789-_.ABCDEFXYZ"),
        async (at, ch) => {
          const changed = `${token.slice(0, at)}${ch}${token.slice(at + 1)}`;
          fc.pre(changed !== token);
          expect(await verifyAnswerToken(env.TOKEN_PEPPER, changed)).toBeNull();
        },
      ),
      { numRuns: 200 },
    );
    expect(await verifyAnswerToken("another pepper", token)).toBeNull();
  });
});
