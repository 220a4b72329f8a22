// Connector tests: a registry whose connector tools use a fresh in-memory connections port and the
// contract servers, an executor on real D1, and a sleep that records the waits it was asked for.
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { writeAuditBatch } from "../../../src/edge/audit/audit-log.ts";
import type { ConnectorDeps } from "../../../src/edge/connectors/deps.ts";
import { Executor, type FaultPoint } from "../../../src/edge/conveyor/executor.ts";
import { toolRegistry } from "../../../src/edge/conveyor/registry.ts";
import { openDb } from "../../../src/edge/db/client.ts";
import type { ExecutionEnvelope } from "../../../src/protocol/conveyor.ts";
import { BRAVE_TEST_KEY } from "../../support/contract/brave.ts";
import { contractClient } from "../../support/contract/client.ts";
import { MemoryConnections } from "../../support/memory-connections.ts";
import { newOwner, testEgress } from "../conveyor/support.ts";

export const contract = contractClient(inject("contract").controlUrl);
export { uniqueAccount } from "../../support/contract/client.ts";

export async function connectorRig(
  opts: { fault?: (p: FaultPoint) => void; braveKey?: string | null; now?: () => number } = {},
) {
  const connections = new MemoryConnections();
  const waits: number[] = [];
  const deps: ConnectorDeps = {
    tokens: connections,
    endpoints: () => inject("contract").endpoints,
    braveSearchKey: opts.braveKey === null ? undefined : (opts.braveKey ?? BRAVE_TEST_KEY),
    sleep: async (ms) => {
      waits.push(ms);
    },
  };
  const db = openDb(env.DB);
  const registry = toolRegistry({ connectors: deps });
  const executor = new Executor({
    db,
    registry,
    egress: testEgress(),
    audit: (entries) => writeAuditBatch(db, entries),
    ...(opts.fault ? { fault: opts.fault } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });
  const userId = await newOwner();
  /** Runs one tool call as the executor would for an approved proposal (or an inline read). */
  async function run(
    tool: string,
    args: Record<string, unknown>,
    identity: "user" | "bot" = "user",
    key = `k-${crypto.randomUUID()}`,
  ): Promise<ExecutionEnvelope & { key: string }> {
    const t = registry.get(tool);
    if (!t) throw new Error(`no tool ${tool}`);
    const parsed = t.schema.parse(args);
    const ran = await executor.execute({ ownerId: userId, tool, key, args: parsed, identity, actor: "test" });
    if (!ran.ok) throw new Error(`${ran.code}: ${ran.message}`);
    return { ...ran.envelope, key };
  }
  return { connections, waits, deps, registry, executor, userId, run };
}

export const resultOf = (e: ExecutionEnvelope) => (e.result ?? {}) as Record<string, unknown>;
