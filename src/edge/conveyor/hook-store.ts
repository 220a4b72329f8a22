// Hooks and their deliveries in D1: create, list, rotate, delete; deliveries deduplicated by webhook-id.
import { and, desc, eq, isNull, lt } from "drizzle-orm";
import { HookAction, type HookView } from "../../protocol/conveyor.ts";
import { newId } from "../auth/crypto.ts";
import type { Db } from "../db/client.ts";
import { hooks, webhookDeliveries } from "../db/schema.ts";
import { newHookSecret, openSecret, sealSecret } from "./hook-secrets.ts";

export type HookRow = typeof hooks.$inferSelect;

/** Deliveries are remembered well past the 5-minute timestamp tolerance, so no replay can slip through. */
export const DELIVERY_RETENTION_MS = 7 * 24 * 3600 * 1000;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function hookView(row: HookRow, origin: string, now = Date.now()): HookView {
  const previousValid = row.previousSecret !== null && row.previousUntil !== null && row.previousUntil > now;
  return {
    id: row.id,
    name: row.name,
    url: `${origin}/v1/hooks/${row.id}`,
    action: row.action ? HookAction.parse(JSON.parse(row.action)) : null,
    created_at: new Date(row.createdAt).toISOString(),
    rotated_at: iso(row.rotatedAt),
    previous_secret_valid_until: previousValid ? iso(row.previousUntil) : null,
  };
}

export async function createHook(
  db: Db,
  pepper: string,
  h: { userId: string; name: string; action: HookAction | undefined; deviceId: string | null; now: number },
): Promise<{ row: HookRow; secret: string }> {
  const id = newId("hk");
  const secret = newHookSecret();
  const row: HookRow = {
    id,
    userId: h.userId,
    name: h.name,
    action: h.action ? JSON.stringify(h.action) : null,
    secret: await sealSecret(pepper, id, secret),
    previousSecret: null,
    previousUntil: null,
    createdAt: h.now,
    rotatedAt: null,
    deletedAt: null,
    createdByDevice: h.deviceId,
  };
  await db.insert(hooks).values(row);
  return { row, secret };
}

export async function liveHook(db: Db, id: string, userId?: string): Promise<HookRow | undefined> {
  const where = userId
    ? and(eq(hooks.id, id), eq(hooks.userId, userId), isNull(hooks.deletedAt))
    : and(eq(hooks.id, id), isNull(hooks.deletedAt));
  return (await db.select().from(hooks).where(where))[0];
}

export async function listHooks(db: Db, userId: string): Promise<HookRow[]> {
  return db
    .select()
    .from(hooks)
    .where(and(eq(hooks.userId, userId), isNull(hooks.deletedAt)))
    .orderBy(desc(hooks.createdAt));
}

/** A new current secret; the old one keeps verifying for `graceMs` (0: not at all). */
export async function rotateHook(
  db: Db,
  pepper: string,
  row: HookRow,
  graceMs: number,
  now: number,
): Promise<{ row: HookRow; secret: string }> {
  const secret = newHookSecret();
  const next: Partial<HookRow> = {
    secret: await sealSecret(pepper, row.id, secret),
    previousSecret: graceMs > 0 ? row.secret : null,
    previousUntil: graceMs > 0 ? now + graceMs : null,
    rotatedAt: now,
  };
  await db.update(hooks).set(next).where(eq(hooks.id, row.id));
  return { row: { ...row, ...next }, secret };
}

export async function deleteHook(db: Db, row: HookRow, now: number): Promise<void> {
  // The sealed secrets go too: a deleted hook can never verify anything again.
  await db
    .update(hooks)
    .set({ deletedAt: now, secret: "deleted", previousSecret: null, previousUntil: null })
    .where(eq(hooks.id, row.id));
}

/** The secrets a delivery may be signed with right now: current first, then the previous in its grace. */
export async function verifyingSecrets(pepper: string, row: HookRow, now: number): Promise<string[]> {
  const secrets = [await openSecret(pepper, row.id, row.secret)];
  if (row.previousSecret && row.previousUntil !== null && row.previousUntil > now) {
    secrets.push(await openSecret(pepper, row.id, row.previousSecret));
  }
  return secrets;
}

/** Records a verified delivery; false when this webhook-id was already delivered to this hook. */
export async function recordDelivery(
  db: Db,
  d: { hookId: string; webhookId: string; payloadHash: string; now: number },
): Promise<{ fresh: boolean; proposalId: string | null }> {
  const inserted = await db
    .insert(webhookDeliveries)
    .values({ hookId: d.hookId, webhookId: d.webhookId, receivedAt: d.now, payloadHash: d.payloadHash })
    .onConflictDoNothing()
    .returning({ hookId: webhookDeliveries.hookId });
  if (inserted.length === 1) return { fresh: true, proposalId: null };
  const seen = await db
    .select({ proposalId: webhookDeliveries.proposalId })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.hookId, d.hookId), eq(webhookDeliveries.webhookId, d.webhookId)));
  return { fresh: false, proposalId: seen[0]?.proposalId ?? null };
}

export async function linkDelivery(
  db: Db,
  hookId: string,
  webhookId: string,
  proposalId: string,
): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ proposalId })
    .where(and(eq(webhookDeliveries.hookId, hookId), eq(webhookDeliveries.webhookId, webhookId)));
}

export async function pruneDeliveries(db: Db, now: number): Promise<void> {
  await db.delete(webhookDeliveries).where(lt(webhookDeliveries.receivedAt, now - DELIVERY_RETENTION_MS));
}
