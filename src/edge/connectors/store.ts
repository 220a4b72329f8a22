// The oauth_tokens table: connections with their tokens sealed (oauth/cipher.ts) under the row's own id, so a
// sealed value moved to another row or column does not open. Only this module and tokens.ts see plaintext tokens.
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { ConnectionView, ConnectorIdentity, ConnectorProvider } from "../../protocol/connections.ts";
import { newId } from "../auth/crypto.ts";
import type { Db } from "../db/client.ts";
import { oauthTokens } from "../db/schema.ts";
import { type KeyRing, open, seal } from "./oauth/cipher.ts";
import type { Grant } from "./oauth/client.ts";

export type ConnectionRow = typeof oauthTokens.$inferSelect;

export interface OpenedConnection {
  row: ConnectionRow;
  scopes: string[];
  accessToken: string;
  refreshToken: string | null;
}

const Scopes = z.array(z.string());
export const scopesOf = (row: { scopes: string }): string[] => Scopes.parse(JSON.parse(row.scopes));

const context = (id: string, field: "access" | "refresh") => `oauth_tokens:${id}:${field}`;

async function sealed(ring: KeyRing, id: string, accessToken: string, refreshToken: string | null) {
  return {
    keyId: ring.current.id,
    accessTokenSealed: await seal(ring, accessToken, context(id, "access")),
    refreshTokenSealed: refreshToken === null ? null : await seal(ring, refreshToken, context(id, "refresh")),
  };
}

export async function openConnection(ring: KeyRing, row: ConnectionRow): Promise<OpenedConnection> {
  return {
    row,
    scopes: scopesOf(row),
    accessToken: await open(ring, row.keyId, row.accessTokenSealed, context(row.id, "access")),
    refreshToken:
      row.refreshTokenSealed === null
        ? null
        : await open(ring, row.keyId, row.refreshTokenSealed, context(row.id, "refresh")),
  };
}

export async function findConnection(
  db: Db,
  userId: string,
  provider: ConnectorProvider,
  identity: ConnectorIdentity,
): Promise<ConnectionRow | undefined> {
  return db
    .select()
    .from(oauthTokens)
    .where(
      and(
        eq(oauthTokens.userId, userId),
        eq(oauthTokens.provider, provider),
        eq(oauthTokens.identity, identity),
      ),
    )
    .get();
}

export async function connectionById(db: Db, userId: string, id: string): Promise<ConnectionRow | undefined> {
  return db
    .select()
    .from(oauthTokens)
    .where(and(eq(oauthTokens.userId, userId), eq(oauthTokens.id, id)))
    .get();
}

/**
 * Stores a fresh authorization as this identity's connection to the provider, replacing the one it had. A
 * response without a refresh token keeps the stored one (Google sends it only on some consents); a response
 * without scopes keeps the ones asked for. Returns the connection and, when it replaced another account's, that
 * one's opened tokens (to revoke at the provider).
 */
export async function saveConnection(
  db: Db,
  ring: KeyRing,
  input: {
    userId: string;
    provider: ConnectorProvider;
    identity: ConnectorIdentity;
    account: string;
    asked: string[];
    grant: Grant;
    now: number;
  },
): Promise<{ id: string; scopes: string[]; replaced: OpenedConnection | null }> {
  const existing = await findConnection(db, input.userId, input.provider, input.identity);
  const previous = existing ? await openConnection(ring, existing).catch(() => null) : null;
  const sameAccount = existing?.account === input.account;
  const id = existing && sameAccount ? existing.id : newId("con");
  const refreshToken = input.grant.refreshToken ?? (sameAccount ? (previous?.refreshToken ?? null) : null);
  const scopes = input.grant.scopes ?? input.asked;
  const values = {
    account: input.account,
    scopes: JSON.stringify(scopes),
    ...(await sealed(ring, id, input.grant.accessToken, refreshToken)),
    accessExpiresAt: input.grant.expiresAt,
    status: "active" as const,
    updatedAt: input.now,
    lastRefreshedAt: null,
  };
  if (existing && sameAccount) {
    await db
      .update(oauthTokens)
      .set({ ...values, version: existing.version + 1 })
      .where(eq(oauthTokens.id, id));
    return { id, scopes, replaced: null };
  }
  const insert = db.insert(oauthTokens).values({
    id,
    userId: input.userId,
    provider: input.provider,
    identity: input.identity,
    createdAt: input.now,
    ...values,
  });
  if (existing) {
    await db.batch([db.delete(oauthTokens).where(eq(oauthTokens.id, existing.id)), insert]);
  } else {
    await insert;
  }
  return { id, scopes, replaced: previous };
}

/**
 * Stores refreshed tokens only if nobody else did since `row` was read (its version): two refreshes racing with a
 * rotating refresh token must not both store. False: the caller lost the race and should re-read.
 */
export async function storeRefreshed(
  db: Db,
  ring: KeyRing,
  row: ConnectionRow,
  tokens: { accessToken: string; refreshToken: string | null; expiresAt: number | null; scopes: string[] },
  now: number,
): Promise<boolean> {
  const result = await db
    .update(oauthTokens)
    .set({
      ...(await sealed(ring, row.id, tokens.accessToken, tokens.refreshToken)),
      scopes: JSON.stringify(tokens.scopes),
      accessExpiresAt: tokens.expiresAt,
      status: "active",
      version: row.version + 1,
      updatedAt: now,
      lastRefreshedAt: now,
    })
    .where(and(eq(oauthTokens.id, row.id), eq(oauthTokens.version, row.version)));
  return result.meta.changes === 1;
}

/** Seals a row's tokens again under the ring's current key (after a rotation); a concurrent write wins. */
export async function reseal(db: Db, ring: KeyRing, opened: OpenedConnection): Promise<void> {
  const { row } = opened;
  await db
    .update(oauthTokens)
    .set({
      ...(await sealed(ring, row.id, opened.accessToken, opened.refreshToken)),
      version: row.version + 1,
    })
    .where(and(eq(oauthTokens.id, row.id), eq(oauthTokens.version, row.version)));
}

/**
 * Marks the connection broken unless it moved on since `row` was read. The version stays: a refresh that raced
 * this one and did get new tokens still stores them (storeRefreshed) and makes the connection active again.
 */
export async function markBroken(db: Db, row: ConnectionRow, now: number): Promise<void> {
  await db
    .update(oauthTokens)
    .set({ status: "broken", updatedAt: now })
    .where(and(eq(oauthTokens.id, row.id), eq(oauthTokens.version, row.version)));
}

export async function markUsed(db: Db, userId: string, id: string, now: number): Promise<void> {
  await db
    .update(oauthTokens)
    .set({ lastUsedAt: now })
    .where(and(eq(oauthTokens.userId, userId), eq(oauthTokens.id, id)));
}

export async function deleteConnection(db: Db, userId: string, id: string): Promise<boolean> {
  const result = await db
    .delete(oauthTokens)
    .where(and(eq(oauthTokens.userId, userId), eq(oauthTokens.id, id)));
  return result.meta.changes === 1;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The phone's list: who, what and when, never a token. */
export async function listConnections(db: Db, userId: string): Promise<ConnectionView[]> {
  const rows = await db
    .select({
      id: oauthTokens.id,
      provider: oauthTokens.provider,
      identity: oauthTokens.identity,
      account: oauthTokens.account,
      scopes: oauthTokens.scopes,
      status: oauthTokens.status,
      createdAt: oauthTokens.createdAt,
      lastUsedAt: oauthTokens.lastUsedAt,
    })
    .from(oauthTokens)
    .where(eq(oauthTokens.userId, userId))
    .orderBy(desc(oauthTokens.createdAt));
  return rows.map((r) => ({
    id: r.id,
    provider: r.provider,
    identity: r.identity,
    account: r.account,
    scopes: scopesOf(r),
    status: r.status,
    created_at: iso(r.createdAt) ?? "",
    last_used_at: iso(r.lastUsedAt),
  }));
}
