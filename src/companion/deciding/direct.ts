// The no-daemon path: decide with the local policy and grant cache, ask the edge directly when a person must decide.

import { type Env, edgeGraceMs, edgeTimeoutMs, promptTimeoutMs } from "../cli/config.ts";
import type { AgentToolCall, CompanionDecision } from "../control/tool-call.ts";
import { EdgeClient } from "../edge/client.ts";
import { loadCredentials, NOT_PAIRED } from "../edge/credentials.ts";
import { PolicyStore } from "../local-policy/store.ts";
import { enqueueAudit } from "./audit-queue.ts";
import { decideToolCall, diskPinning } from "./decide.ts";
import { EdgeApprover } from "./edge-approver.ts";
import { readEmergencyCache } from "./emergency-cache.ts";
import { readGrantCache, ruleOfGrant } from "./grants.ts";

/**
 * One store per environment for the life of the process: a long-lived adapter (MCP server, Pi extension) without a
 * daemon compiles the policy once and recompiles only when a layer file changes.
 */
const stores = new Map<Env, PolicyStore>();
function policyStore(env: Env): PolicyStore {
  let store = stores.get(env);
  if (!store) {
    store = new PolicyStore(env, () => {});
    stores.set(env, store);
  }
  return store;
}

export async function decideDirect(
  call: AgentToolCall,
  env: Env,
  askMode: "approver" | "return",
): Promise<CompanionDecision> {
  const creds = loadCredentials(env);
  const grants = readGrantCache(env).map(ruleOfGrant);
  const edge = creds.ok ? EdgeClient.fromCredentials(creds.credentials, edgeTimeoutMs(env)) : undefined;
  return decideToolCall(call, {
    policy: (cwd) => policyStore(env).get(cwd),
    emergency: () => readEmergencyCache(env),
    grants: () => grants,
    ...(edge
      ? { approver: new EdgeApprover(edge, edgeGraceMs(env)) }
      : { unpairedReason: creds.ok ? "" : creds.missing ? NOT_PAIRED : creds.reason }),
    audit: (event) => {
      try {
        enqueueAudit([event], env);
      } catch {
        // Audit is best effort on the direct path; the decision itself stands.
      }
    },
    promptTimeoutMs: promptTimeoutMs(env),
    askMode,
    causal: diskPinning(env),
  });
}

export async function endSessionAtEdge(sessionId: string, env: Env): Promise<boolean> {
  const creds = loadCredentials(env);
  if (!creds.ok) return false;
  return EdgeClient.fromCredentials(creds.credentials, edgeTimeoutMs(env))
    .endSession(sessionId)
    .then(() => true)
    .catch(() => false);
}
