// Relays an answer given in Pi's own dialog to the edge, so the phone prompt for the same call closes at
// once and the audit records who decided (this device), instead of the prompt lingering until it times out.
import { z } from "zod";
import { CapabilityPrompt } from "../../../protocol/index.ts";
import { type Env, edgeTimeoutMs } from "../../cli/config.ts";
import { EdgeClient } from "../../edge/client.ts";
import { loadCredentials } from "../../edge/credentials.ts";

export type RelayOutcome = "resolved" | "not-pending" | "batched" | "unpaired" | "failed";

const PendingList = z.object({ approvals: z.array(CapabilityPrompt) });
const Token = z.object({ token: z.string() });

/** The phone request may still be on its way when a person answers locally; it gets this long to land. */
const LOOKUP_ATTEMPTS = 6;
const LOOKUP_GAP_MS = 250;

async function send(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(5_000),
  });
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status}`);
  return res.json();
}

/**
 * Resolves the pending phone prompt for `callId` with the local answer (once). A prompt that batches other
 * calls is left alone: one local answer must not decide calls the person never saw in Pi. Never throws.
 */
export async function relayLocalAnswer(
  callId: string,
  allow: boolean,
  env: Env = process.env,
): Promise<RelayOutcome> {
  const creds = loadCredentials(env);
  if (!creds.ok) return "unpaired";
  const { server, token } = creds.credentials;
  const edge = EdgeClient.fromCredentials(creds.credentials, edgeTimeoutMs(env));
  try {
    let promptId = "";
    for (let attempt = 0; attempt < LOOKUP_ATTEMPTS && promptId === ""; attempt++) {
      const answer = await edge.decision(callId);
      if (answer?.state === "decided") return "not-pending";
      if (answer?.state === "pending") promptId = answer.promptId;
      else await new Promise((r) => setTimeout(r, LOOKUP_GAP_MS));
    }
    if (promptId === "") return "not-pending";
    const pending = PendingList.parse(await send(server, token, "GET", "/v1/approvals?status=pending"));
    const prompt = pending.approvals.find((p) => p.promptId === promptId);
    if (!prompt) return "not-pending";
    if (prompt.callIds.length !== 1 || prompt.callIds[0] !== callId) return "batched";
    const id = encodeURIComponent(promptId);
    if (!allow) {
      await send(server, token, "POST", `/v1/approvals/${id}/reject`, { scope: "once" });
      return "resolved";
    }
    const confirmation = prompt.requiresConfirmation
      ? Token.parse(await send(server, token, "POST", `/v1/approvals/${id}/confirm`, {})).token
      : undefined;
    await send(server, token, "POST", `/v1/approvals/${id}/approve`, {
      scope: "once",
      ...(confirmation ? { confirmation_token: confirmation } : {}),
    });
    return "resolved";
  } catch {
    return "failed";
  }
}
