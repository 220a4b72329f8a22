// Saving, using, listing and revoking grants of every kind the way a person and a companion do it.
import { evictDurableObject } from "cloudflare:test";
import type { ProposalView } from "../../src/protocol/conveyor.ts";
import type { GrantList } from "../../src/protocol/grants.ts";
import { answerFirst, type Device, pendingPrompts, request } from "./approvals-helpers.ts";
import { TARGET, uniqueKey } from "./conveyor/support.ts";
import { api } from "./helpers.ts";

/** A grant kind and the one call (or proposal) it covers. */
export type GrantCase =
  | { kind: "agent"; path: string; effect: "allow" | "deny" }
  | { kind: "session"; path: string; session: string }
  | {
      kind: "proposal";
      /** A body makes the POST an EXFILTRATION; without one it is a WRITE. */
      body: boolean;
      identity: "user" | "bot";
      effect: "allow" | "deny";
      path: "effect" | "echo";
    };

const host = new URL(TARGET).host;

export const caseName = (c: GrantCase): string =>
  c.kind === "proposal"
    ? `proposal ${c.effect} POST ${host}/${c.path} ${c.body ? "EXFILTRATION" : "WRITE"} ${c.identity}`
    : c.kind === "session"
      ? `session ${c.path}`
      : `agent ${c.effect} ${c.path}`;

const proposal = (c: Extract<GrantCase, { kind: "proposal" }>) => ({
  tool: "http.request",
  identity: c.identity,
  idempotency_key: uniqueKey("grant"),
  justification: "Tell the build service.",
  args: { method: "POST", url: `${TARGET}/${c.path}`, ...(c.body ? { json: { ok: true } } : {}) },
});

export async function listGrants(d: Device): Promise<GrantList> {
  const res = await d.get("/v1/grants");
  if (res.status !== 200) throw new Error(`GET /v1/grants: ${res.status}`);
  return (await res.json()) as GrantList;
}

/** Every listed grant id and the case it was saved for, as a comparable key. */
export function listedKeys(list: GrantList): Map<string, string> {
  const keys = new Map<string, string>();
  for (const g of list.grants) keys.set(g.id, `agent ${g.effect} ${g.scope_pattern}`);
  for (const g of list.session_grants) keys.set(g.id, `session ${g.scope_pattern}`);
  for (const g of list.conveyor_grants)
    keys.set(g.id, `proposal ${g.effect} ${g.scope} ${g.risk_class} ${g.identity}`);
  return keys;
}

export type Outcome = "allow" | "deny" | "ask";

/**
 * Makes the case's call (or proposal) once and says what decided it: a grant allowed or denied it, or
 * it asked a person (the prompt is then answered "once", so nothing is saved and nothing stays open).
 */
export async function use(d: Device, c: GrantCase): Promise<Outcome> {
  if (c.kind === "proposal") {
    const res = await d.companion.post("/v1/proposals", proposal(c));
    const view = ((await res.json()) as { proposal: ProposalView }).proposal;
    if (view.state === "PENDING") {
      await d.post(`/v1/approvals/${view.id}/reject`, { scope: "once" });
      return "ask";
    }
    if (view.state === "REJECTED") return "deny";
    return "allow";
  }
  const session = c.kind === "session" ? c.session : "session-1";
  const res = await d.decide(request({ input: { path: c.path }, session_id: session }));
  const body = (await res.json()) as { decision?: string; source?: string; prompt_id?: string };
  if (res.status === 202) {
    await answerFirst(d, "reject", { scope: "once" });
    return "ask";
  }
  if (body.source !== "grant" && body.source !== "session_grant")
    throw new Error(`${caseName(c)} decided by ${body.source}`);
  return body.decision === "allow" ? "allow" : "deny";
}

/** Saves the case's grant the way a person does: the card's always (or session) answer. */
export async function save(d: Device, c: GrantCase): Promise<void> {
  if (c.kind === "proposal") {
    const res = await d.companion.post("/v1/proposals", proposal(c));
    const view = ((await res.json()) as { proposal: ProposalView }).proposal;
    if (view.state !== "PENDING") throw new Error(`${caseName(c)}: proposal ${view.state}, not asked`);
    await answerFirst(d, c.effect === "allow" ? "approve" : "reject", { scope: "always" });
    return;
  }
  const session = c.kind === "session" ? c.session : "session-1";
  const res = await d.decide(request({ input: { path: c.path }, session_id: session }));
  if (res.status !== 202) throw new Error(`${caseName(c)}: not asked (${res.status})`);
  const [prompt] = await pendingPrompts(d.get);
  if (!prompt) throw new Error("no prompt");
  const action = c.kind === "agent" && c.effect === "deny" ? "reject" : "approve";
  const scope = c.kind === "session" ? "session" : "always";
  const answered = await d.post(`/v1/approvals/${prompt.promptId}/${action}`, { scope });
  if (answered.status !== 200) throw new Error(`${caseName(c)}: answer ${answered.status}`);
}

export async function revoke(d: Device, id: string): Promise<number> {
  return (await api(`/v1/grants/${id}`, { method: "DELETE", headers: d.approver.headers })).status;
}

/** What the case's call gets from a grant of its own kind once saved. */
export const granted = (c: GrantCase): Outcome =>
  c.kind === "session" ? "allow" : c.effect === "allow" ? "allow" : "deny";

/** Restarts the user's hub (woken first: only a running Durable Object can be evicted). */
export async function restart(d: Device): Promise<void> {
  await d.get("/v1/approvals?status=pending");
  await evictDurableObject(d.hub);
}
