// One store of grants (issue 31): a grant of every kind, saved before or after the list was read and across
// restarts, is listed with what it covers and where it came from, covers exactly its call, and once revoked
// covers nothing from the very next call. Proposal grants know their risk class and identity (issue 22).
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/edge/db/client.ts";
import { grants } from "../../src/edge/db/schema.ts";
import type { ProposalView } from "../../src/protocol/conveyor.ts";
import { device, pendingPrompts } from "./approvals-helpers.ts";
import { auditOf, effectsOf, TARGET, uniqueKey } from "./conveyor/support.ts";
import {
  caseName,
  type GrantCase,
  granted,
  listedKeys,
  listGrants,
  restart,
  revoke,
  save,
  use,
} from "./grant-support.ts";
import { api } from "./helpers.ts";
import { connect } from "./socket-client.ts";

const CASES: GrantCase[] = [
  { kind: "agent", path: "/work/repo/src/a.ts", effect: "allow" },
  { kind: "agent", path: "/work/repo/src/b.ts", effect: "deny" },
  { kind: "session", path: "/work/repo/src/c.ts", session: "s-one" },
  { kind: "proposal", body: false, identity: "bot", effect: "allow", path: "effect" },
  { kind: "proposal", body: true, identity: "user", effect: "allow", path: "effect" },
  { kind: "proposal", body: false, identity: "bot", effect: "deny", path: "echo" },
];

type Before = "nothing" | "a list" | "a restart" | "a list and a restart";
const BEFORE: Before[] = ["nothing", "a list", "a restart", "a list and a restart"];

describe("every grant is listed and revocable", { timeout: 120_000 }, () => {
  for (const before of BEFORE) {
    it(`each kind saved after ${before}: listed (and after a restart), covers its call, revoked covers nothing`, async () => {
      for (const c of CASES) {
        const d = await device();
        if (before.includes("list")) expect(listedKeys(await listGrants(d)).size).toBe(0);
        if (before.includes("restart")) await restart(d);
        await save(d, c);
        const listed = listedKeys(await listGrants(d));
        expect([...listed.values()], caseName(c)).toEqual([caseName(c)]);
        await restart(d);
        const [id] = [...listedKeys(await listGrants(d)).keys()];
        expect(id, caseName(c)).toBe([...listed.keys()][0]);
        expect(await use(d, c), caseName(c)).toBe(granted(c));
        expect(await revoke(d, id ?? ""), caseName(c)).toBe(200);
        expect(await use(d, c), `${caseName(c)} after revoke`).toBe("ask");
        expect(listedKeys(await listGrants(d)).size, caseName(c)).toBe(0);
        await restart(d);
        expect(await use(d, c), `${caseName(c)} after revoke and restart`).toBe("ask");
        expect(await revoke(d, id ?? ""), caseName(c)).toBe(404);
      }
    });
  }

  it("every kind in one account, the list read between saves: all listed, with what, who, when, which card, last use", async () => {
    const d = await device();
    for (const c of CASES) {
      await listGrants(d);
      await save(d, c);
    }
    const list = await listGrants(d);
    expect(new Set(listedKeys(list).values())).toEqual(new Set(CASES.map(caseName)));
    const all = [...list.grants, ...list.session_grants, ...list.conveyor_grants];
    for (const g of all) {
      expect(g.created_by).toBe(d.approver.deviceId);
      expect(g.prompt_id).toMatch(/^prm_/);
      expect(Date.parse(g.created_at)).toBeGreaterThan(0);
      expect(g.covers.length).toBeGreaterThan(10);
    }
    const proposalGrant = list.conveyor_grants.find((g) => g.identity === "bot" && g.effect === "allow");
    expect(proposalGrant).toMatchObject({ tool: "http.request", risk_class: "WRITE", last_used_at: null });
    expect(proposalGrant?.covers).toMatch(/WRITE only/);
    const proposalCase = CASES[3] as GrantCase;
    expect(await use(d, proposalCase)).toBe("allow");
    const after = await listGrants(d);
    const used = after.conveyor_grants.find((g) => g.id === proposalGrant?.id);
    expect(Date.parse(used?.last_used_at ?? "")).toBeGreaterThanOrEqual(
      Date.parse(proposalGrant?.created_at ?? ""),
    );
    const agentGrant = after.grants.find((g) => g.effect === "allow");
    expect(agentGrant?.last_used_at).toBeNull();
    expect(await use(d, CASES[0] as GrantCase)).toBe("allow");
    const touched = (await listGrants(d)).grants.find((g) => g.id === agentGrant?.id);
    expect(touched?.last_used_at).not.toBeNull();
  });

  it("audits each grant's creation, use and revocation", async () => {
    const d = await device();
    const c = CASES[3] as GrantCase;
    await save(d, c);
    const [g] = (await listGrants(d)).conveyor_grants;
    if (!g) throw new Error("no grant");
    expect(await use(d, c)).toBe("allow");
    expect(await revoke(d, g.id)).toBe(200);
    await d.get("/v1/audit");
    const rows = await auditOf(d.userId, g.id);
    expect(rows.map((r) => r.event)).toEqual(["grant.created", "grant.used", "grant.deleted"]);
    expect(JSON.parse(rows[0]?.details ?? "{}")).toMatchObject({
      kind: "proposal",
      risk_class: "WRITE",
      identity: "bot",
      prompt_id: g.prompt_id,
    });
    expect(rows[0]?.actor).toBe(`device:${d.approver.deviceId}`);
    expect(JSON.parse(rows[1]?.details ?? "{}")).toMatchObject({
      kind: "proposal",
      covered: expect.stringMatching(/^prp_/),
    });
  });

  it("a use the companion decided locally (its reported decision names the grant) is the grant's last use", async () => {
    const d = await device();
    await save(d, CASES[0] as GrantCase);
    const [g] = (await listGrants(d)).grants;
    if (!g) throw new Error("no grant");
    const at = new Date(Date.now() - 5_000).toISOString();
    const event = {
      call_id: "local-use-1",
      session_id: "s",
      agent_id: "claude-code",
      tool: "read",
      capability: "read",
      risk: "low",
      action: "allow",
      layer: "grant",
      rule: null,
      scope_hash: "a".repeat(64),
      source: "grant",
      at,
    };
    const res = await api("/v1/audit/events", {
      method: "POST",
      headers: d.companion.headers,
      json: {
        events: [
          { ...event, grant_id: g.id },
          { ...event, call_id: "local-use-2", grant_id: "grt_notMineAAAAAAAAA" },
        ],
      },
    });
    expect(res.status).toBe(202);
    const [after] = (await listGrants(d)).grants;
    expect(after?.last_used_at).toBe(at);
    await d.get("/v1/audit");
    const rows = await auditOf(d.userId, g.id);
    expect(rows.map((r) => [r.event, r.actor])).toContainEqual(["grant.used", `companion:${d.deviceId}`]);
  });

  it("a proposal grant D1 held but the hub never imported (written there before one store) is listed and revocable", async () => {
    const d = await device();
    await listGrants(d);
    // What the old conveyor did: a row straight into D1 after the hub had imported once.
    await runInDurableObject(d.hub, (_hub, state) => {
      state.storage.sql.exec(`UPDATE hub_meta SET value = '1' WHERE key = 'grants_imported'`);
    });
    const id = "grt_legacyAAAAAAAAAA";
    await openDb(env.DB)
      .insert(grants)
      .values({
        id,
        userId: d.userId,
        agentId: "conveyor",
        capability: "conveyor:http.request",
        match: "legacy",
        scopePattern: `POST ${new URL(TARGET).host}`,
        effect: "allow",
        createdAt: Date.now(),
        createdByDevice: d.approver.deviceId,
        promptId: null,
      });
    await restart(d);
    const list = await listGrants(d);
    expect(list.conveyor_grants).toEqual([
      expect.objectContaining({
        id,
        risk_class: null,
        identity: null,
        covers: expect.stringMatching(/nothing/),
      }),
    ]);
    expect(await revoke(d, id)).toBe(200);
    expect((await listGrants(d)).conveyor_grants).toEqual([]);
  });
});

describe("a proposal grant covers only its risk class and identity (issue 22)", { timeout: 60_000 }, () => {
  const post = (identity: "user" | "bot", body: boolean) => ({
    tool: "http.request",
    identity,
    idempotency_key: uniqueKey("class"),
    justification: "Report the build.",
    args: { method: "POST", url: `${TARGET}/effect`, ...(body ? { json: { secrets: "x" } } : {}) },
  });
  const propose = async (d: Awaited<ReturnType<typeof device>>, body: unknown) =>
    ((await (await d.companion.post("/v1/proposals", body)).json()) as { proposal: ProposalView }).proposal;

  it("approving a bodiless POST to a host always never lets an EXFILTRATION POST with a body go out without a person", async () => {
    const d = await device();
    const first = await propose(d, post("bot", false));
    expect(first).toMatchObject({ state: "PENDING", risk_class: "WRITE" });
    expect((await d.post(`/v1/approvals/${first.id}/approve`, { scope: "always" })).status).toBe(200);
    const again = await propose(d, post("bot", false));
    expect(again).toMatchObject({ state: "EXECUTED", gate: "none" });
    const exfil = post("bot", true);
    const attempt = await propose(d, exfil);
    expect(attempt).toMatchObject({ state: "PENDING", risk_class: "EXFILTRATION", gate: "ask_confirm" });
    expect(await effectsOf(`http.request:${exfil.idempotency_key}`)).toBe(0);
    // A plain approve without the confirmation token is refused: a person must take the deliberate step.
    expect((await d.post(`/v1/approvals/${attempt.id}/approve`, { scope: "once" })).status).not.toBe(200);
    expect(await effectsOf(`http.request:${exfil.idempotency_key}`)).toBe(0);
  });

  it("a grant for the bot identity never covers the user identity", async () => {
    const d = await device();
    const first = await propose(d, post("bot", false));
    await d.post(`/v1/approvals/${first.id}/approve`, { scope: "always" });
    const asUser = post("user", false);
    expect(await propose(d, asUser)).toMatchObject({ state: "PENDING", gate: "ask" });
    expect(await effectsOf(`http.request:${asUser.idempotency_key}`)).toBe(0);
  });

  it("an exact EXFILTRATION grant (saved with the confirmation token) covers the next EXFILTRATION", async () => {
    const d = await device();
    await propose(d, post("user", true));
    const [prompt] = await pendingPrompts(d.get);
    const confirm = await d.post(`/v1/approvals/${prompt?.promptId}/confirm`);
    const token = ((await confirm.json()) as { token: string }).token;
    const ok = await d.post(`/v1/approvals/${prompt?.promptId}/approve`, {
      scope: "always",
      confirmation_token: token,
    });
    expect(ok.status).toBe(200);
    expect(await propose(d, post("user", true))).toMatchObject({ state: "EXECUTED", gate: "none" });
    expect(await propose(d, post("bot", true))).toMatchObject({ state: "PENDING", gate: "ask_confirm" });
  });
});

describe("grant management is the person's", { timeout: 60_000 }, () => {
  it("a revocation reaches every connected companion at once: the saved grant's id, the session grant's rule", async () => {
    const d = await device();
    await save(d, CASES[0] as GrantCase);
    await save(d, CASES[2] as GrantCase);
    const socket = await connect(d.companion.headers);
    socket.send({ type: "hello", client: { name: "companion" } });
    await socket.next("welcome");
    const list = await listGrants(d);
    const saved = list.grants[0];
    const session = list.session_grants[0];
    expect(await revoke(d, saved?.id ?? "")).toBe(200);
    expect((await socket.next("grants_revoked")).data).toEqual({ ids: [saved?.id], session: [] });
    expect(await revoke(d, session?.id ?? "")).toBe(200);
    expect((await socket.next("grants_revoked")).data).toMatchObject({
      ids: [session?.id],
      session: [
        {
          session_id: "s-one",
          agent_id: "claude-code",
          rule: { capability: "read", match: "exact", pattern: "/work/repo/src/c.ts", effect: "allow" },
        },
      ],
    });
    socket.ws.close();
  });

  it("a companion may never list or revoke grants of any kind", async () => {
    const d = await device();
    await save(d, CASES[3] as GrantCase);
    await save(d, CASES[2] as GrantCase);
    const list = await listGrants(d);
    expect((await d.companion.get("/v1/grants")).status).toBe(403);
    for (const g of [...list.conveyor_grants, ...list.session_grants]) {
      const res = await api(`/v1/grants/${g.id}`, { method: "DELETE", headers: d.companion.headers });
      expect(res.status).toBe(403);
    }
    expect(listedKeys(await listGrants(d)).size).toBe(2);
  });
});
