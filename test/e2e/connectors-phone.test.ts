// Connector proposals on a phone at 390×844 against a real local edge (`wrangler dev`, the test entry):
// a gmail.send card shows "As you", From / To / Subject and the body preview; approving it sends exactly
// one mail at the Gmail contract server, from the person's account. A send as the assistant says so.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ProposalView } from "../../src/protocol/index.ts";
import { contractClient } from "../support/contract/client.ts";
import { type ContractServers, startContractServers } from "../support/contract/server.ts";
import {
  allowOnceConfirmed,
  card,
  emailCard,
  type Phone,
  pairedPhone,
  rejectPending,
  startStage,
  WAIT_MS,
} from "./support/dashboard.ts";
import { type Edge, ROOT } from "./support/edge.ts";

let contract: ContractServers;
let edge: Edge;
let browser: Browser;
let ui: Phone;
let page: Page;
let companion: { token: string; deviceId: string };
let approverToken: string;

async function propose(identity: "user" | "bot", args: Record<string, unknown>): Promise<ProposalView> {
  const res = await fetch(`${edge.base}/v1/proposals`, {
    method: "POST",
    headers: { authorization: `Bearer ${companion.token}`, "content-type": "application/json" },
    body: JSON.stringify({
      tool: "gmail.send",
      identity,
      idempotency_key: `phone-${crypto.randomUUID()}`,
      justification: "Answer Bob about lunch.",
      args,
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { proposal: ProposalView }).proposal;
}

beforeAll(async () => {
  contract = await startContractServers();
  ({ edge, browser } = await startStage({
    stateDir: mkdtempSync(join(tmpdir(), "airlock-connectors-e2e-")),
    entry: "test/edge/worker-entry.ts",
    vars: { TEST_CONNECTOR_ENDPOINTS: JSON.stringify(contract.endpoints), TEST_CONNECT_EVERYONE: "1" },
  }));
  companion = await edge.pairDevice("companion", "dev laptop");
  approverToken = (await edge.pairDevice("browser", "script approver")).token;
  ui = await pairedPhone(browser, edge);
  page = ui.page;
}, 240_000);

afterEach(() => rejectPending(edge, approverToken));

afterAll(async () => {
  await browser?.close();
  await edge?.stop();
  await contract?.close();
});

describe("connector cards on the phone", () => {
  it("shows the email card as you; one approval sends exactly one mail from your account", async () => {
    const body = "Friday works. See you at noon.";
    const proposal = await propose("user", { to: ["bob@example.org"], subject: "Re: Lunch?", body });
    const account = /from (\S+) \(as you\)/.exec(proposal.summary.where)?.[1] ?? "";
    expect(account).toMatch(/@example\.com$/);
    const promptId = proposal.prompt_id ?? "";
    const { identity, email } = await emailCard(page, promptId);
    expect(identity).toBe("As you");
    for (const part of [account, "bob@example.org", "Re: Lunch?", body]) expect(email).toContain(part);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(ROOT, "test-results", "dashboard-connector-email.png") });

    await allowOnceConfirmed(page, promptId);
    await card(page, promptId)
      .locator('.proposal-outcome[data-state="EXECUTED"]')
      .waitFor({ timeout: WAIT_MS });
    const { sends } = await contractClient(contract.controlUrl).stats(account);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ from: account, to: ["bob@example.org"], subject: "Re: Lunch?" });
    expect(sends[0]?.idempotencyKey).toBe(`gmail.send:${proposal.idempotency_key}`);
  });

  it("a send as the assistant says so on the card", async () => {
    const proposal = await propose("bot", { to: ["bob@example.org"], subject: "Status", body: "All green." });
    const { identity, email } = await emailCard(page, proposal.prompt_id ?? "");
    expect(identity).toBe("As the assistant");
    expect(email).toMatch(/From\s*assistant-\S+@example\.com/);
  });

  it("ran every page without a script error or a CSP violation", () => {
    expect(ui.problems).toEqual([]);
  });
});
