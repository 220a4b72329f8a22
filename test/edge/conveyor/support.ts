// Helpers for conveyor tests: the loopback target server's stats, an executor wired to real D1 and the
// real guard, audit rows by target.
import { env } from "cloudflare:workers";
import { and, asc, eq } from "drizzle-orm";
import { inject } from "vitest";
import { writeAuditBatch } from "../../../src/edge/audit/audit-log.ts";
import { loopbackKey } from "../../../src/edge/conveyor/egress/config.ts";
import { createEgress } from "../../../src/edge/conveyor/egress/guard.ts";
import { Executor, type ExecutorPorts, type FaultPoint } from "../../../src/edge/conveyor/executor.ts";
import { toolRegistry } from "../../../src/edge/conveyor/registry.ts";
import { openDb } from "../../../src/edge/db/client.ts";
import { auditLog, users } from "../../../src/edge/db/schema.ts";

export const servers = inject("egress");
export const TARGET = `http://127.0.0.1:${servers.targetPort}`;

export interface TargetStats {
  hits: { target: number; internal: number; metadata: number };
  effects: Record<string, number>;
  paths: string[];
}

export async function targetStats(): Promise<TargetStats> {
  return (await fetch(`${servers.controlUrl}/stats`)).json() as Promise<TargetStats>;
}

/** How many times the target applied the effect sent with this Idempotency-Key. */
export async function effectsOf(downstreamKey: string): Promise<number> {
  return (await targetStats()).effects[downstreamKey] ?? 0;
}

export function testEgress() {
  return createEgress({
    resolverUrl: servers.dohUrl,
    loopbackTargets: new Set([loopbackKey("127.0.0.1", servers.targetPort)]),
  });
}

export async function newOwner(): Promise<string> {
  const id = `usr_cv${crypto.randomUUID().replaceAll("-", "").slice(0, 14)}`;
  await openDb(env.DB)
    .insert(users)
    .values({ id, name: "Conveyor tester", role: "member", createdAt: Date.now() });
  return id;
}

export function executor(
  opts: {
    now?: () => number;
    fault?: (p: FaultPoint) => void;
    declaredIdempotent?: ExecutorPorts["declaredIdempotent"];
  } = {},
) {
  const db = openDb(env.DB);
  return new Executor({
    db,
    registry: toolRegistry(),
    egress: testEgress(),
    audit: (entries) => writeAuditBatch(db, entries),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.fault ? { fault: opts.fault } : {}),
    ...(opts.declaredIdempotent ? { declaredIdempotent: opts.declaredIdempotent } : {}),
  });
}

export async function auditOf(userId: string, target?: string) {
  const where = target
    ? and(eq(auditLog.userId, userId), eq(auditLog.target, target))
    : eq(auditLog.userId, userId);
  return openDb(env.DB).select().from(auditLog).where(where).orderBy(asc(auditLog.at));
}

export const uniqueKey = (label: string) => `${label}-${crypto.randomUUID()}`;
