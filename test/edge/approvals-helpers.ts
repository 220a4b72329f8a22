// Helpers for approval tests: a paired device, decision requests, the user's hub stub.
import { env } from "cloudflare:workers";
import { createPairingCode } from "../../src/edge/auth/pairing.ts";
import { openDb } from "../../src/edge/db/client.ts";
import { users } from "../../src/edge/db/schema.ts";
import type { DecisionRequest } from "../../src/protocol/decisions.ts";
import { ROLE_OF_KIND } from "../../src/protocol/pairing.ts";
import { api, bearer } from "./helpers.ts";

let counter = 0;

export function request(overrides: Partial<DecisionRequest> = {}): DecisionRequest {
  counter += 1;
  return {
    call_id: `call-${Date.now()}-${counter}`,
    session_id: "session-1",
    agent: { id: "claude-code", name: "Claude Code", version: "2.1.0" },
    tool: "read",
    input: { path: "/work/repo/src/index.ts" },
    cwd: "/work/repo",
    ...overrides,
  };
}

async function bind(userId: string, kind: "companion" | "browser") {
  const db = openDb(env.DB);
  const { code } = await createPairingCode(db, env.TOKEN_PEPPER, userId, ROLE_OF_KIND[kind]);
  const res = await api("/v1/pairing/bind", {
    method: "POST",
    headers: { "cf-connecting-ip": `test-${userId}` },
    json: { code, device_name: kind === "browser" ? "phone" : "laptop", kind },
  });
  const body = (await res.json()) as { device_id: string; user_id: string; token: string };
  return { deviceId: body.device_id, userId: body.user_id, token: body.token };
}

function client(token: string) {
  const headers = bearer(token);
  return {
    headers,
    get: (path: string) => api(path, { headers }),
    post: (path: string, json?: unknown) =>
      api(path, { method: "POST", headers, ...(json === undefined ? {} : { json }) }),
  };
}

/**
 * A new user (so every test gets its own UserHub) with a paired companion (the dev machine: `decide`,
 * `headers`, `deviceId`, `companion`) and a paired approver (the phone: `get`, `post`, `approver`).
 */
export async function device() {
  const db = openDb(env.DB);
  const userId = `usr_test${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  await db.insert(users).values({ id: userId, name: "Tester", role: "member", createdAt: Date.now() });
  const companion = await bind(userId, "companion");
  const phone = await bind(userId, "browser");
  const hub = env.USER_HUB.get(env.USER_HUB.idFromName(userId));
  const companionClient = client(companion.token);
  const approverClient = client(phone.token);
  return {
    ...companion,
    hub,
    headers: companionClient.headers,
    companion: { ...companion, ...companionClient },
    approver: { ...phone, ...approverClient },
    decide: (body: DecisionRequest, wait = false) =>
      api(`/v1/decisions${wait ? "" : "?wait=false"}`, {
        method: "POST",
        headers: companionClient.headers,
        json: body,
      }),
    get: approverClient.get,
    post: approverClient.post,
  };
}

/** Another companion device of the same user (its own token), e.g. a second machine replaying a call id. */
export async function sameUserDevice(userId: string) {
  const other = await bind(userId, "companion");
  const c = client(other.token);
  return {
    ...other,
    ...c,
    decide: (body: DecisionRequest, wait = false) =>
      api(`/v1/decisions${wait ? "" : "?wait=false"}`, { method: "POST", headers: c.headers, json: body }),
  };
}

export async function pendingPrompts(path: (p: string) => Promise<Response>) {
  const res = await path("/v1/approvals?status=pending");
  return (
    (await res.json()) as {
      approvals: { promptId: string; callIds: string[]; capability: string; risk: string }[];
    }
  ).approvals;
}

export type Device = Awaited<ReturnType<typeof device>>;

/** Answers the first pending prompt (approve/reject with a body) and returns it; high risk gets a token first. */
export async function answerFirst(
  d: Device,
  action: "approve" | "reject",
  body: Record<string, unknown> = {},
) {
  const [prompt] = await pendingPrompts(d.get);
  if (!prompt) throw new Error("no pending prompt");
  let extra = {};
  if (action === "approve" && prompt.risk === "high") {
    const confirm = await d.post(`/v1/approvals/${prompt.promptId}/confirm`);
    extra = { confirmation_token: ((await confirm.json()) as { token: string }).token };
  }
  const res = await d.post(`/v1/approvals/${prompt.promptId}/${action}`, { ...body, ...extra });
  return { prompt, res };
}

/** The grant choices the first pending prompt offers. */
export async function grantChoices(d: Device) {
  const res = await d.get("/v1/approvals?status=pending");
  const { approvals } = (await res.json()) as {
    approvals: {
      promptId: string;
      options: string[];
      capability: string;
      grant: {
        exact: { capability: string; pattern: string }[];
        moreExact: number;
        wider: string[];
        why?: string;
        rule?: string;
      };
    }[];
  };
  return approvals[0];
}
