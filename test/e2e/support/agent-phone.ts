// What the real-agent adapter tests share: a real local edge, a sandboxed companion paired with it, and a phone that
// answers the cards through the REST API as a person's taps would (approve the calls it is told to, reject the rest;
// `answerCards` for a file that pairs its own companion or answers with a scope).
import { expect } from "vitest";
import { runAirlock, type Sandbox, sandbox } from "../../node/companion/support/sandbox.ts";
import { type Edge, startEdge } from "./edge.ts";

export interface Card {
  promptId: string;
  justification: string;
  requiresConfirmation: boolean;
  agent?: { id: string; name: string };
  calls?: { summary: string }[];
}

export interface PairedBox {
  edge: Edge;
  box: Sandbox;
  /** Every card the phone saw, in order. */
  cards: Card[];
  /** Answers cards until `done` settles: approves those whose calls mention one of `approve`, rejects the rest. */
  answerUntil(done: Promise<unknown>, approve: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * The policy the Gemini CLI, OpenCode and Copilot CLI e2e tests share: rm denied with a reason the model must
 * read, touch asked on the phone, echo allowed, reads and writes inside the workspace allowed, the rest denied.
 */
export const AGENT_POLICY = `version: 1
default_action: deny
rules:
  - name: No rm
    condition: tool == "bash" && command.startsWith("rm")
    action: deny
    message: rm is not allowed here
  - name: Ask before touch
    condition: tool == "bash" && command.startsWith("touch")
    action: ask
  - name: Echo
    condition: tool == "bash" && command.startsWith("echo")
    action: allow
  - name: Read the workspace
    condition: tool == "read" && path.startsWith(cwd)
    action: allow
  - name: Write inside the workspace
    condition: tool == "write" && path.startsWith(cwd)
    action: allow
`;

export async function pairedBox(policy: string): Promise<PairedBox> {
  const edge = await startEdge();
  const box = sandbox({ AIRLOCK_PROMPT_TIMEOUT_MS: "60000", AIRLOCK_NO_DAEMON: "1" });
  box.writePolicy(policy);
  const paired = await runAirlock(["pair", await edge.newCode(), "--server", edge.base, "--json"], box.env);
  expect(paired.code, paired.stderr).toBe(0);
  const phone = (await edge.pairDevice("browser", "e2e phone")).token;
  const cards: Card[] = [];

  return {
    edge,
    box,
    cards,
    answerUntil: (done, approve) =>
      answerCards(edge, phone, cards, done, (summary) =>
        approve.some((text) => summary.includes(text)) ? "approve" : "reject",
      ),
    async close() {
      await edge.stop();
      box.cleanup();
    },
  };
}

/** How the phone answers a card: reject it, or approve it with the default scope, or with "once" or "always". */
export type Answer = "reject" | "approve" | "once" | "always";

/**
 * The phone (device token `phone`) answering cards through the REST API as a person's taps would, until `done`
 * settles: each new card is pushed to `cards` and answered as `choose` says; an approved card that asks for a
 * confirmation gets one first.
 */
export async function answerCards(
  edge: Edge,
  phone: string,
  cards: Card[],
  done: Promise<unknown>,
  choose: (summary: string) => Answer,
): Promise<void> {
  const api = async (path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${edge.base}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${phone}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  while (!finished) {
    const { approvals } = (await api("/v1/approvals?status=pending")) as { approvals: Card[] };
    for (const card of approvals) {
      if (cards.some((c) => c.promptId === card.promptId)) continue;
      cards.push(card);
      const answer = choose(card.calls?.map((c) => c.summary).join(" ") ?? "");
      let token: string | undefined;
      if (answer !== "reject" && card.requiresConfirmation)
        token = ((await api(`/v1/approvals/${card.promptId}/confirm`, {})) as { token: string }).token;
      await api(`/v1/approvals/${card.promptId}/${answer === "reject" ? "reject" : "approve"}`, {
        ...(answer === "once" || answer === "always" ? { scope: answer } : {}),
        ...(token ? { confirmation_token: token } : {}),
      });
    }
    // Polling as the dashboard's list does; the agent's run ending stops it.
    await new Promise((r) => setTimeout(r, 150));
  }
}
