// Targets the person declared idempotent (they deduplicate by Idempotency-Key), in D1. Only these, and
// tools known idempotent, are ever sent again after a crash that may have sent them (executor.ts).
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { idempotentTargets } from "../db/schema.ts";
import type { ToolRegistry } from "./registry.ts";
import type { ConveyorTool } from "./tool.ts";

export type IdempotentTargetRow = typeof idempotentTargets.$inferSelect;

export function listTargets(db: Db, userId: string): Promise<IdempotentTargetRow[]> {
  return db
    .select()
    .from(idempotentTargets)
    .where(eq(idempotentTargets.userId, userId))
    .orderBy(asc(idempotentTargets.tool), asc(idempotentTargets.target));
}

export async function declareTarget(
  db: Db,
  t: { userId: string; tool: string; target: string; deviceId: string | null; now: number },
): Promise<void> {
  await db
    .insert(idempotentTargets)
    .values({
      userId: t.userId,
      tool: t.tool,
      target: t.target,
      createdAt: t.now,
      createdByDevice: t.deviceId,
    })
    .onConflictDoNothing();
}

export async function removeTarget(db: Db, userId: string, tool: string, target: string): Promise<boolean> {
  const gone = await db
    .delete(idempotentTargets)
    .where(
      and(
        eq(idempotentTargets.userId, userId),
        eq(idempotentTargets.tool, tool),
        eq(idempotentTargets.target, target.toLowerCase()),
      ),
    )
    .returning({ target: idempotentTargets.target });
  return gone.length > 0;
}

/** The executor's port: whether this run's target is one the person declared idempotent. */
export function declaredIdempotent(db: Db) {
  return async (ownerId: string, tool: ConveyorTool, args: unknown): Promise<boolean> => {
    const target = tool.target?.(args)?.toLowerCase();
    if (!target) return false;
    const rows = await db
      .select({ target: idempotentTargets.target })
      .from(idempotentTargets)
      .where(
        and(
          eq(idempotentTargets.userId, ownerId),
          eq(idempotentTargets.tool, tool.name),
          eq(idempotentTargets.target, target),
        ),
      );
    return rows.length > 0;
  };
}

/** Tools that have a target a person can declare (the others are idempotent or never re-sent). */
export function declarableTools(registry: ToolRegistry): string[] {
  return [...registry.keys()].filter((name) => registry.get(name)?.target !== undefined);
}
