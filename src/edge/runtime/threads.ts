// Chat threads and their messages in D1: creation, appends in thread order (seq assigned in the same
// statement, ids derived from the turn so a resumed turn appends nothing twice), pages, and views.
import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import { ChatMessage, type ThreadView } from "../../protocol/runtime.ts";
import { newId } from "../auth/crypto.ts";
import type { Db } from "../db/client.ts";
import { messages, threads } from "../db/schema.ts";

export type ThreadRow = typeof threads.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

/** Longest stored message; tool results past it are cut with a marker (seed 003 §6.1 bounded payloads). */
export const MAX_MESSAGE_CHARS = 32_000;

export function clip(text: string, max = MAX_MESSAGE_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}\n[… cut: ${text.length - max} more characters]` : text;
}

const iso = (ms: number) => new Date(ms).toISOString();
const ToolCalls = ChatMessage.shape.tool_calls;

/** An assistant message's stored tool calls (registry names), parsed. */
export function storedToolCalls(row: MessageRow): NonNullable<ChatMessage["tool_calls"]> {
  return row.toolCalls ? (ToolCalls.parse(JSON.parse(row.toolCalls)) ?? []) : [];
}

export async function createThread(
  db: Db,
  t: { userId: string; title: string; jobId?: string | null; id?: string; now: number },
): Promise<ThreadRow> {
  const row: ThreadRow = {
    id: t.id ?? newId("thr"),
    userId: t.userId,
    title: t.title,
    jobId: t.jobId ?? null,
    createdAt: t.now,
    updatedAt: t.now,
  };
  await createThreadWrite(db, row);
  return row;
}

/** createThread's insert, unsent, to ride in a D1 batch. */
export function createThreadWrite(db: Db, row: ThreadRow) {
  return db.insert(threads).values(row).onConflictDoNothing();
}

export async function threadById(db: Db, userId: string, id: string): Promise<ThreadRow | undefined> {
  return (
    await db
      .select()
      .from(threads)
      .where(and(eq(threads.id, id), eq(threads.userId, userId)))
  )[0];
}

export async function listThreads(db: Db, userId: string, limit: number): Promise<ThreadRow[]> {
  return db
    .select()
    .from(threads)
    .where(eq(threads.userId, userId))
    .orderBy(desc(threads.updatedAt), desc(threads.id))
    .limit(limit);
}

export interface NewMessage {
  id: string;
  threadId: string;
  userId: string;
  role: MessageRow["role"];
  content: string;
  turnId: string | null;
  toolCalls?: { id: string; name: string; arguments: string }[] | null;
  toolCallId?: string | null;
  toolName?: string | null;
  untrusted?: boolean;
  clientMessageId?: string | null;
  now: number;
}

/**
 * Appends a message at the thread's next seq, in one statement (D1 runs it alone, so two appends never
 * take the same seq). A message whose id exists is left as it is: the stored one is returned.
 */
export async function appendMessage(db: Db, m: NewMessage): Promise<MessageRow> {
  await db.batch(appendMessageWrites(db, m));
  const stored = (await db.select().from(messages).where(eq(messages.id, m.id)))[0];
  if (!stored) throw new Error(`message ${m.id} was not stored`);
  return stored;
}

/** appendMessage's writes, unsent, to ride in a D1 batch with others (a job's creation). */
export function appendMessageWrites(db: Db, m: NewMessage) {
  const toolCalls = m.toolCalls?.length ? JSON.stringify(m.toolCalls) : null;
  return [
    // The table's columns in order; the seq is the thread's next one, taken in the same statement.
    db
      .insert(messages)
      .select(
        sql`SELECT ${m.id}, ${m.threadId}, ${m.userId}, COALESCE(MAX(seq), 0) + 1, ${m.role}, ${clip(m.content)},
          ${m.turnId}, ${toolCalls}, ${m.toolCallId ?? null}, ${m.toolName ?? null}, ${m.untrusted ? 1 : 0},
          ${m.clientMessageId ?? null}, ${m.now}
        FROM messages WHERE thread_id = ${m.threadId}`,
      )
      .onConflictDoNothing(),
    db.update(threads).set({ updatedAt: m.now }).where(eq(threads.id, m.threadId)),
  ] as const;
}

export async function messageByClientId(
  db: Db,
  threadId: string,
  clientMessageId: string,
): Promise<MessageRow | undefined> {
  return (
    await db
      .select()
      .from(messages)
      .where(and(eq(messages.threadId, threadId), eq(messages.clientMessageId, clientMessageId)))
  )[0];
}

/** The latest `limit` messages (before `before`), or those after `after`; always oldest first. */
export async function pageMessages(
  db: Db,
  threadId: string,
  q: { limit: number; before?: number | undefined; after?: number | undefined },
): Promise<MessageRow[]> {
  if (q.after !== undefined) {
    return db
      .select()
      .from(messages)
      .where(and(eq(messages.threadId, threadId), gt(messages.seq, q.after)))
      .orderBy(asc(messages.seq))
      .limit(q.limit);
  }
  const where =
    q.before !== undefined
      ? and(eq(messages.threadId, threadId), lt(messages.seq, q.before))
      : eq(messages.threadId, threadId);
  const rows = await db.select().from(messages).where(where).orderBy(desc(messages.seq)).limit(q.limit);
  return rows.reverse();
}

/** The whole transcript the model may see, newest `limit`, oldest first. */
export function recentMessages(db: Db, threadId: string, limit: number): Promise<MessageRow[]> {
  return pageMessages(db, threadId, { limit });
}

export function threadView(row: ThreadRow): ThreadView {
  return {
    id: row.id,
    title: row.title,
    job_id: row.jobId,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function messageView(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    thread_id: row.threadId,
    seq: row.seq,
    role: row.role,
    content: row.content,
    turn_id: row.turnId,
    untrusted: row.untrusted,
    tool_calls: row.toolCalls ? ToolCalls.parse(JSON.parse(row.toolCalls)) : null,
    tool: row.toolCallId ? { call_id: row.toolCallId, name: row.toolName ?? "" } : null,
    created_at: iso(row.createdAt),
  };
}
