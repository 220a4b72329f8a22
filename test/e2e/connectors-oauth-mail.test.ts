// Issue 23's whole path on real parts: a phone at 390×844 connects Google through the OAuth contract server
// (consent, the edge's callback, tokens sealed in local D1), a hosted job with the scripted model reads the
// unread mail, drafts a reply and proposes gmail.send; the phone shows the email card; one approval sends
// exactly one mail at the Gmail contract server, signed with the access token the OAuth flow obtained (no
// in-memory shortcut: TEST_CONNECT_EVERYONE is off); the audit has every transition; Revoke on the phone
// stops the next call cleanly. No issued token reaches the audit, the model's input or the edge's log.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEvent, ProposalView } from "../../src/protocol/index.ts";
import type { JobView } from "../../src/protocol/runtime.ts";
import { contractClient } from "../support/contract/client.ts";
import { type ContractServers, startContractServers } from "../support/contract/server.ts";
import { type OAuthContractServer, startOAuthContractServer } from "../support/oauth-contract-server.ts";
import { OAUTH_TEST_SECRETS } from "../support/oauth-test-secrets.ts";
import { READ_STEP } from "../support/plan-steps.ts";
import { type PlannerServer, plannerVars, startPlannerServer } from "../support/planner-server.ts";
import {
  allowOnceConfirmed,
  card,
  emailCard,
  type Phone,
  pairedPhone,
  startStage,
  WAIT_MS,
} from "./support/dashboard.ts";
import { type Edge, ROOT } from "./support/edge.ts";

const ACCOUNT = "person-mail-e2e@example.com";

let oauth: OAuthContractServer;
let contract: ContractServers;
let planner: PlannerServer;
let edge: Edge;
let browser: Browser;
let ui: Phone;
let page: Page;
let approverToken: string;
let companionToken: string;

async function api<T>(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const res = await fetch(`${edge.base}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      authorization: `Bearer ${init.token ?? approverToken}`,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, json: (await res.json()) as T };
}

/** Polls the API (never sleeps blind) until `pick` finds what the job has reached. */
async function until<T>(what: string, pick: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = await pick();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const proposalsNow = async () => (await api<{ proposals: ProposalView[] }>("/v1/proposals")).json.proposals;

const read = (name: string, args: Record<string, unknown>) => ({
  name,
  arguments: { ...args, identity: "user", ...READ_STEP },
});
const propose = (tool: string, args: Record<string, unknown>, high: boolean) => ({
  name: "propose_action",
  arguments: {
    tool,
    identity: "user",
    args,
    justification: high ? "Answer Bob." : "Keep a draft of the answer.",
    risk_level: high ? "high" : "medium",
    requires_confirmation: high,
    verification_plan: "Gmail answers the message's id.",
    description: high ? "Send the reply." : "Save the reply as a draft.",
  },
});

beforeAll(async () => {
  oauth = await startOAuthContractServer();
  [contract, planner] = await Promise.all([startContractServers(oauth.introspect), startPlannerServer()]);
  ({ edge, browser } = await startStage({
    stateDir: mkdtempSync(join(tmpdir(), "airlock-oauth-mail-e2e-")),
    entry: "test/edge/worker-entry.ts",
    vars: {
      TEST_CONNECTOR_ENDPOINTS: JSON.stringify(contract.endpoints),
      TEST_OAUTH_URL: oauth.url,
      ...OAUTH_TEST_SECRETS,
      ...plannerVars(planner),
    },
  }));
  approverToken = (await edge.pairDevice("browser", "script approver")).token;
  companionToken = (await edge.pairDevice("companion", "dev laptop")).token;
  ui = await pairedPhone(browser, edge);
  page = ui.page;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await edge?.stop();
  await planner?.close();
  await contract?.close();
  await oauth?.close();
});

describe("connect Google on the phone, a hosted job answers mail, one approved send, revoke", () => {
  it("sends exactly once with the OAuth flow's token, audits every step, and a revoke stops the next call", async () => {
    // 1. Connect Google as you, with mail read and compose, through the provider's consent page.
    await page.getByRole("link", { name: "More" }).tap();
    await page.getByRole("link", { name: /Connections/ }).tap();
    const google = page.locator('section[data-provider="google"]');
    await google.getByLabel("As you (your Google account)").check();
    await google.getByLabel("Draft and send mail").check();
    await google.getByRole("button", { name: "Connect Google" }).tap();
    await page.waitForURL(`${oauth.url}/**`, { timeout: WAIT_MS });
    expect(await page.locator("li.scope").allTextContents()).toEqual([
      "openid",
      "email",
      "https://www.googleapis.com/auth/gmail.readonly",
      "https://www.googleapis.com/auth/gmail.compose",
    ]);
    await page.getByLabel("Account").fill(ACCOUNT);
    await page.getByRole("button", { name: "Allow" }).tap();
    await page.waitForURL(`${edge.base}/connections?connected=*`, { timeout: WAIT_MS });
    const row = page.locator("li[data-connection-id]");
    await row.waitFor({ timeout: WAIT_MS });
    expect(await row.locator(".account").textContent()).toBe(ACCOUNT);
    const connectionId = (await row.getAttribute("data-connection-id")) ?? "";
    const issued = oauth.tokensOf(ACCOUNT);
    expect(issued.some((t) => t.startsWith("ya29.test-"))).toBe(true);

    // 2. Unread mail waits; a hosted job reads it, drafts the answer, proposes the send.
    const mail = await contractClient(contract.controlUrl).mail({
      account: ACCOUNT,
      from: "bob@example.org",
      subject: "Lunch?",
      body: "Are you free on Friday?",
    });
    const replyBody = "Friday works. See you at noon.";
    const reply = { to: ["bob@example.org"], subject: "Re: Lunch?", body: replyBody };
    planner.script("oauth-mail", [
      { calls: [read("gmail_search", { query: "is:unread in:inbox" })] },
      { calls: [read("gmail_read", { message_id: mail.id })] },
      { calls: [propose("gmail.draft", { ...reply, reply_to_message_id: mail.id }, false)] },
      { calls: [propose("gmail.send", reply, true)] },
      { text: "Answered Bob: Friday at noon." },
    ]);
    await page.goto(`${edge.base}/`);
    await page.getByRole("status", { name: "Connection: Live" }).waitFor({ timeout: WAIT_MS });
    const started = await api<{ job: JobView }>("/v1/jobs", {
      body: { instructions: "Answer my unread mail. [script:oauth-mail]" },
    });
    expect(started.status).toBe(201);
    const jobId = started.json.job.id;

    // The draft (a WRITE inside the mailbox) is approved from a script; the send waits for the phone.
    const draft = await until("the draft proposal", async () =>
      (await proposalsNow()).find((p) => p.tool === "gmail.draft" && p.state === "PENDING"),
    );
    expect(draft).toMatchObject({ identity: "user", risk_class: "WRITE" });
    const approvedDraft = await api(`/v1/approvals/${draft.prompt_id}/approve`, { body: { scope: "once" } });
    expect(approvedDraft.status).toBe(200);
    const send = await until("the send proposal", async () =>
      (await proposalsNow()).find((p) => p.tool === "gmail.send" && p.state === "PENDING"),
    );
    expect(send).toMatchObject({ identity: "user", risk_class: "EXFILTRATION", gate: "ask_confirm" });
    const stats = () => contractClient(contract.controlUrl).stats(ACCOUNT);
    expect((await stats()).drafts).toHaveLength(1);
    expect((await stats()).sends).toHaveLength(0);

    // 3. The email card on the phone: as you, From / To / Subject, the body's preview.
    const promptId = send.prompt_id ?? "";
    const { identity, email } = await emailCard(page, promptId);
    expect(identity).toBe("As you");
    for (const part of [ACCOUNT, "bob@example.org", "Re: Lunch?", replyBody]) expect(email).toContain(part);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(ROOT, "test-results", "connectors-oauth-mail.png") });

    // 4. Approve (an EXFILTRATION asks for a second tap): exactly one send, with the OAuth flow's token.
    await allowOnceConfirmed(page, promptId);
    await card(page, promptId)
      .locator('.proposal-outcome[data-state="EXECUTED"]')
      .waitFor({ timeout: WAIT_MS });
    const job = await until("the job to finish", async () => {
      const { json } = await api<{ job: JobView }>(`/v1/jobs/${jobId}`);
      return json.job.state === "succeeded" ? json.job : undefined;
    });
    expect(job.result).toBe("Answered Bob: Friday at noon.");
    const after = await stats();
    expect(after.sends).toHaveLength(1);
    expect(after.sends[0]).toMatchObject({
      from: ACCOUNT,
      to: ["bob@example.org"],
      subject: "Re: Lunch?",
      idempotencyKey: `gmail.send:${send.idempotency_key}`,
    });
    const sendRequests = after.requests.filter(
      (r) => r.method === "POST" && r.path.endsWith("/messages/send"),
    );
    expect(sendRequests).toHaveLength(1);
    expect(sendRequests[0]?.tokenKind).toBe("oauth");
    expect(issued).toContain(sendRequests[0]?.token);
    // Every call of the job went out with a token the OAuth flow issued, none with a test token.
    expect(new Set(after.requests.map((r) => r.tokenKind))).toEqual(new Set(["oauth"]));

    // 5. The audit: the connection, then every transition of both proposals, in order.
    const { json: audit } = await api<{ events: AuditEvent[] }>("/v1/audit?limit=1000");
    const trail = [...audit.events].reverse();
    const of = (id: string) => trail.filter((e) => e.target === id).map((e) => e.event);
    expect(of(send.id)).toEqual([
      "conveyor.proposed",
      "conveyor.approved",
      "conveyor.executing",
      "conveyor.executed",
    ]);
    expect(of(draft.id)).toEqual([
      "conveyor.proposed",
      "conveyor.approved",
      "conveyor.executing",
      "conveyor.executed",
    ]);
    const events = trail.map((e) => e.event);
    expect(events.indexOf("connection.connected")).toBeLessThan(events.indexOf("conveyor.proposed"));
    expect(trail.find((e) => e.target === send.id && e.event === "conveyor.approved")?.actor).toMatch(
      /^device:/,
    );
    // No token the provider issued (nor the PKCE verifier) is in the audit, the model's input or the edge's log.
    const modelInput = JSON.stringify(planner.calls("oauth-mail").map((c) => c.messages));
    expect(modelInput).toContain("Lunch?");
    const auditText = JSON.stringify(audit);
    for (const secret of oauth.tokensOf(ACCOUNT)) {
      expect(auditText).not.toContain(secret);
      expect(modelInput).not.toContain(secret);
      expect(edge.output()).not.toContain(secret);
    }

    // 6. Revoke on the phone: the grant dies at the provider, and the next call fails cleanly.
    await page.getByRole("link", { name: "More" }).tap();
    await page.getByRole("link", { name: /Connections/ }).tap();
    const revokeRow = page.locator(`li[data-connection-id="${connectionId}"]`);
    await revokeRow.getByRole("button", { name: /Revoke/ }).tap();
    await revokeRow.locator("fieldset.confirm").getByRole("button", { name: "Revoke", exact: true }).tap();
    await revokeRow.waitFor({ state: "detached", timeout: WAIT_MS });
    expect(oauth.events().filter((e) => e.endpoint === "revoke" && e.outcome === "revoked")).toHaveLength(1);
    const before = (await stats()).requests.length;
    const next = await api<{ proposal: ProposalView }>("/v1/proposals", {
      token: companionToken,
      body: {
        tool: "gmail.search",
        identity: "user",
        idempotency_key: `after-revoke-${crypto.randomUUID()}`,
        justification: "Check mail again.",
        args: { query: "is:unread" },
      },
    });
    expect(next.json.proposal.state).toBe("FAILED");
    expect(next.json.proposal.envelope?.failure).toMatchObject({ class: "permission_denied" });
    expect(next.json.proposal.envelope?.failure?.message).toContain("Connect Google first");
    // Nothing reached Gmail, and the old access token is refused there too.
    expect((await stats()).requests.length).toBe(before);
    const stale = await fetch(`${contract.endpoints.gmail}/gmail/v1/users/me/messages`, {
      headers: { authorization: `Bearer ${sendRequests[0]?.token}` },
    });
    expect(stale.status).toBe(401);
    expect(ui.problems).toEqual([]);
  });
});
