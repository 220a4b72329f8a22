// Chat threads with the hosted agent: create a thread, post a message (each starts one turn; the reply is
// streamed to dashboards over the hub socket and stored), read the transcript in pages. Approvers only.
import { z } from "zod";
import {
  Budgets,
  CreateThreadRequest,
  MessageListQuery,
  MessagePage,
  PostMessageRequest,
  PostMessageResponse,
  ThreadView,
} from "../../protocol/runtime.ts";
import { newId } from "../auth/crypto.ts";
import { hashOf } from "../conveyor/canonical.ts";
import { openDb } from "../db/client.ts";
import { ApiError, notFound } from "../errors.ts";
import { providerConfig } from "../runtime/provider-config.ts";
import { runtimeHub } from "../runtime/runtime-hub.ts";
import {
  appendMessage,
  createThread,
  listThreads,
  messageByClientId,
  messageView,
  pageMessages,
  threadById,
  threadView,
} from "../runtime/threads.ts";
import { startTurn } from "../runtime/turn-events.ts";
import { createTurn, liveTurnOf } from "../runtime/turn-store.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

const ThreadParams = z.object({
  id: z.string().regex(/^thr_[A-Za-z0-9_-]{16,32}$/, "must be a thread id (thr_…)"),
});
const ThreadOne = z.object({ thread: ThreadView });

/** A chat turn's id follows from its message: posting the same message again names the same turn. */
const chatTurnId = async (threadId: string, messageId: string) =>
  `trn_${(await hashOf(`${threadId}\u0000${messageId}`)).slice(0, 24)}`;

export const chatRoutes = routeGroup()
  .openapi(
    apiRoute("use_chat", {
      method: "post",
      path: "/v1/chat/threads",
      summary: "Start a chat thread with the hosted agent",
      request: jsonRequest(CreateThreadRequest),
      responses: { 201: json("The thread.", ThreadOne) },
    }),
    async (c) => {
      const { title } = c.req.valid("json");
      const row = await createThread(openDb(c.env.DB), {
        userId: c.get("auth").userId,
        title: title ?? "New chat",
        now: Date.now(),
      });
      return c.json({ thread: threadView(row) }, 201);
    },
  )
  .openapi(
    apiRoute("use_chat", {
      method: "get",
      path: "/v1/chat/threads",
      summary: "Chat threads (job threads included), most recently active first",
      request: { query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }) },
      responses: { 200: json("Threads.", z.object({ threads: z.array(ThreadView) })) },
    }),
    async (c) => {
      const rows = await listThreads(openDb(c.env.DB), c.get("auth").userId, c.req.valid("query").limit);
      return c.json({ threads: rows.map(threadView) }, 200);
    },
  )
  .openapi(
    apiRoute("use_chat", {
      method: "post",
      path: "/v1/chat/threads/{id}/messages",
      summary:
        "Post a message; the agent's turn starts and its reply streams to dashboards (chat_delta, chat_message)",
      request: { params: ThreadParams, ...jsonRequest(PostMessageRequest) },
      responses: {
        202: json("Stored; the reply is being written.", PostMessageResponse),
        200: json(
          "This client_message_id was posted before: the same message and turn.",
          PostMessageResponse,
        ),
        404: problem("No such thread."),
        409: problem("turn_in_progress: the thread's previous reply is still being written."),
        503: problem(
          "model_not_configured: no model provider is set (AIRLOCK_MODEL_BASE_URL, AIRLOCK_MODEL_MODELS); nothing was stored.",
        ),
      },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const body = c.req.valid("json");
      const auth = c.get("auth");
      const db = openDb(c.env.DB);
      const thread = await threadById(db, auth.userId, id);
      if (!thread) throw notFound(`No thread ${id} on this account.`);
      // Said before anything is stored: a message no model will ever answer would only sit there unanswered.
      const provider = providerConfig(c.env);
      if (!provider.ok)
        throw new ApiError(
          503,
          "model_not_configured",
          `No model is configured, so the agent cannot answer. ${provider.message}`,
          { details: { problem: provider.message } },
        );
      if (body.client_message_id) {
        const seen = await messageByClientId(db, id, body.client_message_id);
        if (seen?.turnId) return c.json({ message: messageView(seen), turn_id: seen.turnId }, 200);
      }
      const live = await liveTurnOf(db, id);
      if (live)
        throw new ApiError(
          409,
          "turn_in_progress",
          "The agent is still answering in this thread; wait for its reply.",
          {
            details: { turn_id: live.id },
          },
        );
      const now = Date.now();
      const messageId = newId("msg");
      const turnId = await chatTurnId(id, messageId);
      const message = await appendMessage(db, {
        id: messageId,
        threadId: id,
        userId: auth.userId,
        role: "user",
        content: body.content,
        turnId,
        clientMessageId: body.client_message_id ?? null,
        now,
      });
      await createTurn(db, {
        id: turnId,
        userId: auth.userId,
        threadId: id,
        jobId: null,
        kind: "chat",
        budgets: Budgets.parse(body.budgets ?? {}),
        triggerMessageId: message.id,
        tainted: false,
        now,
      });
      const view = messageView(message);
      await runtimeHub(c.env, auth.userId).broadcast({ type: "chat_message", data: view });
      await startTurn(c.env, turnId);
      return c.json({ message: view, turn_id: turnId }, 202);
    },
  )
  .openapi(
    apiRoute("use_chat", {
      method: "get",
      path: "/v1/chat/threads/{id}/messages",
      summary: "A thread's messages, oldest first: the latest page, or `before`/`after` a seq",
      request: { params: ThreadParams, query: MessageListQuery },
      responses: { 200: json("A page of messages.", MessagePage), 404: problem("No such thread.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const q = c.req.valid("query");
      const db = openDb(c.env.DB);
      const thread = await threadById(db, c.get("auth").userId, id);
      if (!thread) throw notFound(`No thread ${id} on this account.`);
      const rows = await pageMessages(db, id, q);
      const first = rows[0];
      const older = q.after === undefined && first !== undefined && first.seq > 1 && rows.length === q.limit;
      return c.json({ messages: rows.map(messageView), next_cursor: older && first ? first.seq : null }, 200);
    },
  );
