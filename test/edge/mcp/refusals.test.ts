// Remote MCP's refusals, one per "never": no token, a token for another audience, a revoked token, a device
// token at the consent step, a narrower scope, another client's proposal, and bad input (4xx, nothing changed).
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { device } from "../approvals-helpers.ts";
import { api, bearer, errorOf } from "../helpers.ts";
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
  register,
} from "./support.ts";

describe("remote MCP refuses", () => {
  it("a request with no token, or a token that is not one it issued", async () => {
    const none = await mcp(null, "tools/list");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    const made = await mcp("alk_abc.def", "tools/list");
    expect(made.status).toBe(401);
  });

  it("an Airlock device token at /mcp, and an MCP token at /v1", async () => {
    const { d, token } = await connectedClient();
    expect((await mcp(d.companion.token, "initialize", INIT)).status).toBe(401);
    const asDevice = await api("/v1/proposals", { headers: bearer(token) });
    expect(asDevice.status).toBe(401);
  });

  it("a token presented at another origin's /mcp (wrong audience)", async () => {
    const { token } = await connectedClient();
    const res = await exports.default.fetch(
      new Request("https://other-origin.test/mcp", {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          accept: "application/json, text/event-stream",
          "content-type": "application/json",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INIT }),
      }),
    );
    expect(res.status).toBe(401);
  });

  it("a token request for another resource than the one consented to", async () => {
    const { approver } = await device();
    const phone = browser(approver.token);
    const clientId = await register();
    const { verifier, challenge } = await pkce();
    const back = await consent(phone, authorizeQuery(clientId, challenge));
    const res = await exchange(
      clientId,
      back.searchParams.get("code") ?? "",
      verifier,
      "https://evil.test/mcp",
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_target");
  });

  it("an authorization request naming a resource that is not this server", async () => {
    const { approver } = await device();
    const phone = browser(approver.token);
    const clientId = await register();
    const { challenge } = await pkce();
    const res = await phone.get(
      `/v1/mcp/consent?${authorizeQuery(clientId, challenge, { resource: "https://evil.test/mcp" })}`,
    );
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe("bad_request");
  });

  it("a revoked client: listed on the phone, revoked there, its token stops working at once", async () => {
    const { d, phone, clientId, token } = await connectedClient();
    expect((await mcp(token, "tools/list")).status).toBe(200);
    const listed = (await (await phone.get("/v1/mcp/clients")).json()) as {
      clients: { id: string; client_id: string; client_name: string; scopes: string[] }[];
    };
    expect(listed.clients).toEqual([
      expect.objectContaining({
        client_id: clientId,
        client_name: "Claude Desktop",
        scopes: ["airlock:tools", "airlock:approvals"],
      }),
    ]);
    const grantId = listed.clients[0]?.id ?? "";
    // Another account cannot revoke it, and an unknown id is a 404 that changes nothing.
    const stranger = await device();
    expect((await stranger.post(`/v1/mcp/clients/${grantId}/revoke`)).status).toBe(404);
    expect((await mcp(token, "tools/list")).status).toBe(200);

    expect((await d.post(`/v1/mcp/clients/${grantId}/revoke`)).status).toBe(200);
    expect((await mcp(token, "tools/list")).status).toBe(401);
    const after = (await (await d.get("/v1/mcp/clients")).json()) as { clients: unknown[] };
    expect(after.clients).toEqual([]);
    const audit = (await (await d.get("/v1/audit?limit=50")).json()) as { events: { event: string }[] };
    expect(audit.events.map((e) => e.event)).toContain("mcp.client_revoked");
  });

  it("consent from a companion token, or from an approver's bearer token: only the session cookie consents", async () => {
    const d = await device();
    const clientId = await register();
    const { challenge } = await pkce();
    const path = `/v1/mcp/consent?${authorizeQuery(clientId, challenge)}`;
    const companion = await api(path, { headers: bearer(d.companion.token) });
    expect(companion.status).toBe(403);
    const approverBearer = await api(path, { headers: bearer(d.approver.token) });
    expect(approverBearer.status).toBe(403);
    expect((await errorOf(approverBearer)).message).toContain("signed in on the dashboard");
    const companionCookie = await browser(d.companion.token).get(path);
    expect(companionCookie.status).toBe(403);
    const post = await api("/v1/mcp/consent", {
      method: "POST",
      headers: bearer(d.companion.token),
      json: { handle: "x", decision: "approve", scopes: ["airlock:tools"] },
    });
    expect(post.status).toBe(403);
  });

  it("a consent answer that is malformed, for an unknown client, reused, or from another browser", async () => {
    const d = await device();
    const phone = browser(d.approver.token);
    const unknown = await phone.get(`/v1/mcp/consent?${authorizeQuery("no-such-client", "x".repeat(43))}`);
    expect(unknown.status).toBe(400);

    const bad = await phone.post("/v1/mcp/consent", { handle: "h", decision: "maybe", scopes: ["root"] });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).code).toBe("validation_failed");

    const clientId = await register();
    const { challenge } = await pkce();
    const { handle } = (await (
      await phone.get(`/v1/mcp/consent?${authorizeQuery(clientId, challenge)}`)
    ).json()) as {
      handle: string;
    };
    const none = await phone.post("/v1/mcp/consent", { handle, decision: "approve", scopes: [] });
    expect(none.status).toBe(400);
    // The same person in another browser (no consent-page cookie) cannot use the handle.
    const elsewhere = await browser(d.approver.token).post("/v1/mcp/consent", {
      handle,
      decision: "approve",
      scopes: ["airlock:tools"],
    });
    expect(elsewhere.status).toBe(400);
    const first = await phone.post("/v1/mcp/consent", {
      handle,
      decision: "approve",
      scopes: ["airlock:tools"],
    });
    expect(first.status).toBe(200);
    const again = await phone.post("/v1/mcp/consent", {
      handle,
      decision: "approve",
      scopes: ["airlock:tools"],
    });
    expect(again.status).toBe(400);
    const listed = (await (await d.get("/v1/mcp/clients")).json()) as { clients: unknown[] };
    expect(listed.clients).toHaveLength(1);
  });

  it("a write or a blocked tool while the emergency switches say so: refused before any person is asked", async () => {
    const { d, token } = await connectedClient();
    expect((await d.post("/v1/settings/emergency", { readOnly: true })).status).toBe(200);
    const write = await callTool(token, "http.request", { method: "POST", url: "https://api.example.com/x" });
    expect(write).toMatchObject({ isError: true, structuredContent: { state: "REJECTED" } });
    expect(
      (await d.post("/v1/settings/emergency", { readOnly: false, blockedTools: ["web.fetch"] })).status,
    ).toBe(200);
    const read = await callTool(token, "web.fetch", { url: "https://example.com/" });
    expect(read).toMatchObject({ isError: true, structuredContent: { state: "REJECTED" } });
    const pending = (await (await d.get("/v1/approvals?status=pending")).json()) as { approvals: unknown[] };
    expect(pending.approvals).toEqual([]);
  });

  it("a tool outside the granted scopes, another client's proposal, and bad tool input", async () => {
    const { d, token } = await connectedClient(["airlock:tools"]);
    const tools = (await (await mcp(token, "tools/list")).json()) as {
      result: { tools: { name: string }[] };
    };
    expect(tools.result.tools.map((t) => t.name)).not.toContain("airlock.pending_approvals");
    const pending = await callTool(token, "airlock.pending_approvals", {});
    expect(pending).toMatchObject({ isError: true, structuredContent: { error: { code: "forbidden" } } });

    // A proposal the person's companion made is not this client's to read.
    const own = await d.companion.post("/v1/proposals", {
      tool: "memory.note",
      identity: "user",
      idempotency_key: `k-${crypto.randomUUID()}`,
      justification: "Remember it.",
      args: { topic: "t", text: "x" },
    });
    const { proposal } = (await own.json()) as { proposal: { id: string } };
    const foreign = await callTool(token, "airlock.proposal_status", { proposal_id: proposal.id });
    expect(foreign).toMatchObject({ isError: true, structuredContent: { error: { code: "not_found" } } });

    const badArgs = await callTool(token, "http.request", { method: "GET", url: "ftp://x" });
    expect(badArgs).toMatchObject({
      isError: true,
      structuredContent: { error: { code: "validation_failed" } },
    });
    const unknownTool = await callTool(token, "shell.exec", { command: "rm -rf /" });
    expect(unknownTool).toMatchObject({
      isError: true,
      structuredContent: { error: { code: "unknown_tool" } },
    });
    const badStatus = await callTool(token, "airlock.proposal_status", { proposal_id: "nope" });
    expect(badStatus).toMatchObject({
      isError: true,
      structuredContent: { error: { code: "validation_failed" } },
    });

    const garbage = await api("/mcp", {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
      },
      body: "{not json",
    });
    expect(garbage.status).toBe(400);
    const get = await api("/mcp", {
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    });
    expect(get.status).toBe(405);
    const proposals = (await (await d.get("/v1/proposals")).json()) as { proposals: unknown[] };
    expect(proposals.proposals).toHaveLength(1);
  });
});
