// Chat threads: a message starts a turn, the reply streams to the phone's socket as it is written and is
// stored; pages of messages; a retried post is the same message; one reply at a time per thread.
import { introspectWorkflow } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../../src/protocol/runtime.ts";
import { errorOf } from "../helpers.ts";
import { connect } from "../socket-client.ts";
import { device, runTurns, script } from "./support.ts";

async function thread(d: Awaited<ReturnType<typeof device>>, title = "Morning") {
  const res = await d.post("/v1/chat/threads", { title });
  expect(res.status).toBe(201);
  return ((await res.json()) as { thread: { id: string } }).thread.id;
}

describe("chat", () => {
  it("streams the reply to the phone as it is written, then stores it", async () => {
    const d = await device();
    const reply = "Good morning! Nothing needs you today; the build is green and no one asked for you.";
    const s = await script([{ text: reply }]);
    const id = await thread(d);
    const phone = await connect(d.approver.headers, "approver");
    phone.send({ type: "hello", client: { name: "phone" } });
    await phone.next("welcome");
    const { value } = await runTurns(async () => {
      const res = await d.post(`/v1/chat/threads/${id}/messages`, {
        content: `Anything for me? ${s.marker}`,
      });
      expect(res.status).toBe(202);
      return (await res.json()) as { message: ChatMessage; turn_id: string };
    });
    expect(value.message).toMatchObject({ role: "user", seq: 1, thread_id: id, turn_id: value.turn_id });
    const stored = await phone.next("chat_message");
    expect(stored.data.role).toBe("user");
    const answer = await phone.next("chat_message");
    expect(answer.data).toMatchObject({ role: "assistant", content: reply, seq: 2, turn_id: value.turn_id });
    const deltas = phone.received.flatMap((m) => (m.type === "chat_delta" ? [m.data] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((x) => x.delta).join("")).toBe(reply);
    expect(new Set(deltas.map((x) => x.message_id))).toEqual(new Set([answer.data.id]));
    phone.ws.close();

    const page = await d.get(`/v1/chat/threads/${id}/messages`);
    const body = (await page.json()) as { messages: ChatMessage[]; next_cursor: number | null };
    expect(body.messages.map((m) => [m.seq, m.role])).toEqual([
      [1, "user"],
      [2, "assistant"],
    ]);
    expect(body.next_cursor).toBeNull();
  });

  it("pages: the latest first page, older with before, newer with after", async () => {
    const d = await device();
    const id = await thread(d);
    for (let i = 0; i < 3; i++) {
      const s = await script([{ text: `answer ${i}` }]);
      await runTurns(() =>
        d.post(`/v1/chat/threads/${id}/messages`, { content: `question ${i} ${s.marker}` }),
      );
    }
    const latest = (await (await d.get(`/v1/chat/threads/${id}/messages?limit=4`)).json()) as {
      messages: ChatMessage[];
      next_cursor: number | null;
    };
    expect(latest.messages.map((m) => m.seq)).toEqual([3, 4, 5, 6]);
    expect(latest.next_cursor).toBe(3);
    const older = (await (await d.get(`/v1/chat/threads/${id}/messages?limit=4&before=3`)).json()) as {
      messages: ChatMessage[];
    };
    expect(older.messages.map((m) => m.content)).toEqual([expect.stringContaining("question 0"), "answer 0"]);
    const newer = (await (await d.get(`/v1/chat/threads/${id}/messages?after=5`)).json()) as {
      messages: ChatMessage[];
    };
    expect(newer.messages.map((m) => m.content)).toEqual(["answer 2"]);
  });

  it("a retried post with the same client_message_id is the same message and turn", async () => {
    const d = await device();
    const id = await thread(d);
    const s = await script([{ text: "Once." }]);
    const body = { content: `Hello ${s.marker}`, client_message_id: "retry-me-123" };
    const { value: first } = await runTurns(async () =>
      (await d.post(`/v1/chat/threads/${id}/messages`, body)).json(),
    );
    const again = await d.post(`/v1/chat/threads/${id}/messages`, body);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(first);
  });

  it("a second message while the reply is being written is a 409 turn_in_progress", async () => {
    const d = await device();
    const id = await thread(d);
    const s = await script([{ hangOnce: { text: "late" } }]);
    await using introspector = await introspectWorkflow(env.TURN_WORKFLOW);
    await d.post(`/v1/chat/threads/${id}/messages`, { content: `first ${s.marker}` });
    const res = await d.post(`/v1/chat/threads/${id}/messages`, { content: "second" });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).code).toBe("turn_in_progress");
    expect((await introspector.get()).length).toBe(1);
  });

  it("unknown threads are 404; bad bodies are 400; a companion may not chat", async () => {
    const d = await device();
    expect((await d.post("/v1/chat/threads/thr_AAAAAAAAAAAAAAAA/messages", { content: "x" })).status).toBe(
      404,
    );
    const id = await thread(d);
    const empty = await d.post(`/v1/chat/threads/${id}/messages`, { content: "   " });
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).code).toBe("validation_failed");
    expect((await d.companion.post("/v1/chat/threads", {})).status).toBe(403);
    expect((await d.companion.get(`/v1/chat/threads/${id}/messages`)).status).toBe(403);
  });
});
