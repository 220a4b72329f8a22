// Remote MCP end to end inside workerd: register → consent on the phone → token → initialize → tools/list →
// a READ that runs → a WRITE that becomes a proposal → the phone approves → the result, all audited.
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDb } from "../../../src/edge/db/client.ts";
import { auditLog } from "../../../src/edge/db/schema.ts";
import { TARGET } from "../conveyor/support.ts";
import { api, ORIGIN } from "../helpers.ts";
import {
  authorizeQuery,
  browser,
  callTool,
  connectedClient,
  consent,
  exchange,
  INIT,
  mcp,
  pkce,
  REDIRECT,
  register,
} from "./support.ts";

const auditOf = (userId: string, event: string) =>
  openDb(env.DB)
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.userId, userId), eq(auditLog.event, event)));

describe("remote MCP over OAuth", () => {
  it("publishes discovery: a 401 challenge naming the resource metadata, which names this server", async () => {
    const res = await mcp(null, "initialize", INIT);
    expect(res.status).toBe(401);
    const challenge = res.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`);
    const resource = (await (await api("/.well-known/oauth-protected-resource/mcp")).json()) as Record<
      string,
      unknown
    >;
    expect(resource).toMatchObject({ resource: `${ORIGIN}/mcp`, authorization_servers: [ORIGIN] });
    const server = (await (await api("/.well-known/oauth-authorization-server")).json()) as Record<
      string,
      unknown
    >;
    expect(server).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      code_challenge_methods_supported: ["S256"],
    });
  });

  it("shows the consent page the client's name, redirect URI and scopes", async () => {
    const { approver } = await (await import("../approvals-helpers.ts")).device();
    const phone = browser(approver.token);
    const clientId = await register("Claude Desktop");
    const { challenge } = await pkce();
    const res = await phone.get(`/v1/mcp/consent?${authorizeQuery(clientId, challenge)}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      client: { id: clientId, name: "Claude Desktop", domain: null },
      redirect_uri: REDIRECT,
      redirect_host: "client.example",
      redirect_is_loopback: false,
      scopes: [
        { name: "airlock:tools", description: expect.stringContaining("approval"), requested: true },
        { name: "airlock:approvals", description: expect.stringContaining("pending"), requested: true },
      ],
      resource: `${ORIGIN}/mcp`,
    });
    expect(res.headers.getSetCookie().some((c) => c.startsWith("__Host-oauth-consent"))).toBe(true);
  });

  it("runs a READ at once, turns a WRITE into a proposal the phone approves, and audits every call", async () => {
    const { d, clientId, token } = await connectedClient();

    const init = await mcp(token, "initialize", INIT);
    expect(init.status).toBe(200);
    const initBody = (await init.json()) as {
      result: { serverInfo: { name: string }; capabilities: object };
    };
    expect(initBody.result.serverInfo.name).toBe("airlock");
    expect(initBody.result.capabilities).toHaveProperty("tools");

    const list = (await (await mcp(token, "tools/list")).json()) as { result: { tools: { name: string }[] } };
    const names = list.result.tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "web.fetch",
        "http.request",
        "memory.note",
        "notify",
        "airlock.proposal_status",
        "airlock.pending_approvals",
      ]),
    );

    const read = await callTool(token, "web.fetch", { url: `${TARGET}/ok` });
    expect(read.isError).toBeUndefined();
    expect(read.structuredContent).toMatchObject({ tool: "web.fetch", state: "EXECUTED" });

    const write = await callTool(token, "http.request", { method: "POST", url: `${TARGET}/effect` });
    expect(write.structuredContent).toMatchObject({ tool: "http.request", state: "PENDING" });
    const proposalId = String(write.structuredContent?.proposal_id);
    expect(proposalId).toMatch(/^prp_/);
    expect(write.content[0]?.text).toContain("airlock.proposal_status");

    // The client sees what waits on the person; the person sees the card, from an MCP client.
    const pending = await callTool(token, "airlock.pending_approvals", {});
    expect(pending.structuredContent?.approvals).toEqual([
      expect.objectContaining({ proposal_id: proposalId }),
    ]);
    const cards = (await (await d.get("/v1/approvals?status=pending")).json()) as {
      approvals: { proposal?: { id: string; source: { kind: string; ref: string } } }[];
    };
    expect(cards.approvals[0]?.proposal).toMatchObject({
      id: proposalId,
      source: { kind: "mcp", ref: clientId },
    });

    // The MCP client cannot answer it: its token is not an Airlock device token.
    const selfApprove = await api(`/v1/approvals/${proposalId}/approve`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      json: {},
    });
    expect(selfApprove.status).toBe(401);

    expect((await d.post(`/v1/approvals/${proposalId}/approve`, {})).status).toBe(200);
    const done = await callTool(token, "airlock.proposal_status", { proposal_id: proposalId, wait_s: 20 });
    expect(done.structuredContent).toMatchObject({ proposal_id: proposalId, state: "EXECUTED" });

    const calls = await auditOf(d.userId, "mcp.tool_called");
    expect(calls.map((r) => [r.target, JSON.parse(r.details).outcome]).sort()).toEqual(
      [
        ["http.request", "PENDING"],
        ["web.fetch", "EXECUTED"],
      ].sort(),
    );
    expect(calls.every((r) => r.actor === `mcp:${clientId}`)).toBe(true);
    expect(await auditOf(d.userId, "mcp.consent_granted")).toHaveLength(1);
    const proposed = await auditOf(d.userId, "conveyor.proposed");
    expect(proposed.map((r) => JSON.parse(r.details).source)).toContainEqual({ kind: "mcp", ref: clientId });
  });

  it("offers every scope, ticking what the client asked for; the person may grant more", async () => {
    const { approver } = await (await import("../approvals-helpers.ts")).device();
    const phone = browser(approver.token);
    const clientId = await register();
    const { verifier, challenge } = await pkce();
    const query = authorizeQuery(clientId, challenge, { scope: "airlock:tools" });
    const view = (await (await phone.get(`/v1/mcp/consent?${query}`)).json()) as {
      scopes: { name: string; requested: boolean }[];
    };
    expect(view.scopes.map((s) => [s.name, s.requested])).toEqual([
      ["airlock:tools", true],
      ["airlock:approvals", false],
    ]);
    const back = await consent(phone, query, ["airlock:tools", "airlock:approvals"]);
    const token = (await (
      await exchange(clientId, back.searchParams.get("code") ?? "", verifier)
    ).json()) as {
      access_token: string;
      scope: string;
    };
    expect(token.scope.split(" ").sort()).toEqual(["airlock:approvals", "airlock:tools"]);
    const pending = await callTool(token.access_token, "airlock.pending_approvals", {});
    expect(pending.isError).toBeUndefined();
  });

  it("lets a person who denies send the client back with access_denied and no code", async () => {
    const { approver } = await (await import("../approvals-helpers.ts")).device();
    const phone = browser(approver.token);
    const clientId = await register();
    const { challenge } = await pkce();
    const view = (await (
      await phone.get(`/v1/mcp/consent?${authorizeQuery(clientId, challenge)}`)
    ).json()) as {
      handle: string;
    };
    const res = await phone.post("/v1/mcp/consent", { handle: view.handle, decision: "deny" });
    expect(res.status).toBe(200);
    const back = new URL(((await res.json()) as { redirect_to: string }).redirect_to);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("st-123");
    expect(back.searchParams.has("code")).toBe(false);
  });
});
