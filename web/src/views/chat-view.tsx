// Chat with the hosted agent: the account's threads, the messages of one, and a composer. The reply streams in
// over the socket as the model writes it (chat_delta), then settles as the stored message (chat_message); tool
// results show as small notes. Whatever the agent wants to change arrives as a card in Approvals.
import { useEffect, useState } from "preact/hooks";
import { z } from "zod";
import { ChatMessage, ThreadView } from "../../../src/protocol/runtime.ts";
import { ApiError, api, errorMessage } from "../api.ts";
import { Show, useResource } from "./resource.tsx";
import type { ViewProps } from "./view-props.ts";

const Threads = z.object({ threads: z.array(ThreadView) }).transform((v) => v.threads);
const Created = z.object({ thread: ThreadView });
const Messages = z.object({ messages: z.array(ChatMessage) });
const Posted = z.object({ message: ChatMessage });

/** What the person reads when the server has no model: what is wrong, who fixes it and how, and that nothing was sent. */
function sendFailureWords(failure: unknown): string {
  if (failure instanceof ApiError && failure.code === "model_not_configured")
    return "No model is configured, so the agent cannot answer and your message was not sent. Whoever runs this Airlock sets AIRLOCK_MODEL_BASE_URL and AIRLOCK_MODEL_MODELS (and the secret AIRLOCK_MODEL_API_KEY; see docs/runtime.md), then send it again.";
  return errorMessage(failure);
}

/** Streaming text of replies not stored yet, by the id they will be stored under. */
type Drafts = Record<string, { attempt: number; text: string }>;

function merged(list: ChatMessage[], message: ChatMessage): ChatMessage[] {
  return [...list.filter((m) => m.id !== message.id), message].sort((a, b) => a.seq - b.seq);
}

export function ChatView({ hub }: ViewProps) {
  const [resource, reload] = useResource("/v1/chat/threads", Threads);
  return (
    <main class="view">
      <h1 class="section-title">Chat</h1>
      <Show resource={resource} reload={reload} feature="Chat is">
        {(threads) => <Conversation hub={hub} threads={threads} reload={reload} />}
      </Show>
    </main>
  );
}

function Conversation({
  hub,
  threads,
  reload,
}: {
  hub: ViewProps["hub"];
  threads: ThreadView[];
  reload(): void;
}) {
  const [thread, setThread] = useState<string | null>(threads[0]?.id ?? null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [drafts, setDrafts] = useState<Drafts>({});
  const [text, setText] = useState("");
  const [error, setError] = useState("");

  useEffect(() => {
    setMessages([]);
    setDrafts({});
    if (!thread) return;
    let live = true;
    api(`/v1/chat/threads/${encodeURIComponent(thread)}/messages?limit=100`, Messages).then(
      (page) => live && setMessages((now) => page.messages.reduce(merged, now)),
      (e: unknown) => live && setError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [thread]);

  useEffect(
    () =>
      hub.onRuntime((message) => {
        if (message.type === "chat_delta" && message.data.thread_id === thread) {
          const { message_id, attempt, delta } = message.data;
          setDrafts((now) => {
            const before = now[message_id];
            // A new attempt (repair, fallback model) starts the text again.
            const kept = before && before.attempt === attempt ? before.text : "";
            return { ...now, [message_id]: { attempt, text: kept + delta } };
          });
        } else if (message.type === "chat_message" && message.data.thread_id === thread) {
          const stored = message.data;
          setMessages((now) => merged(now, stored));
          setDrafts(({ [stored.id]: _done, ...rest }) => rest);
        }
      }),
    [hub, thread],
  );

  const newThread = async (): Promise<string | null> => {
    setError("");
    try {
      const { thread: created } = await api("/v1/chat/threads", Created, { method: "POST", body: {} });
      setThread(created.id);
      reload();
      return created.id;
    } catch (failure) {
      setError(errorMessage(failure));
      return null;
    }
  };

  const send = async (event: Event) => {
    event.preventDefault();
    const content = text.trim();
    if (!content) return;
    setError("");
    const id = thread ?? (await newThread());
    if (!id) return;
    try {
      const posted = await api(`/v1/chat/threads/${encodeURIComponent(id)}/messages`, Posted, {
        method: "POST",
        body: { content },
      });
      setText("");
      setMessages((now) => merged(now, posted.message));
    } catch (failure) {
      setError(sendFailureWords(failure));
    }
  };

  // A draft whose message is stored (over the socket, in the page fetched, or a late delta after it) is done.
  const streaming = Object.entries(drafts).filter(([id]) => !messages.some((m) => m.id === id));
  return (
    <>
      <div class="inline-form">
        <select
          value={thread ?? ""}
          onChange={(e) => setThread(e.currentTarget.value || null)}
          aria-label="Thread"
        >
          {threads.map((t) => (
            <option key={t.id} value={t.id}>
              {t.title}
            </option>
          ))}
          {threads.length ? null : <option value="">No thread yet</option>}
        </select>
        <button type="button" class="small-button" onClick={() => void newThread()}>
          New thread
        </button>
      </div>
      <ol class="chat" aria-live="polite" aria-label="Messages">
        {messages.map((m) =>
          m.role === "tool" ? (
            <li key={m.id} class="bubble tool">
              <span class="muted small">
                {m.tool?.name ?? "tool"} result{m.untrusted ? " (untrusted)" : ""}
              </span>
            </li>
          ) : m.role === "assistant" && !m.content ? null : (
            <li key={m.id} class={`bubble ${m.role === "user" ? "mine" : ""}`}>
              <p>{m.content}</p>
              <span class="muted small">{new Date(m.created_at).toLocaleTimeString()}</span>
            </li>
          ),
        )}
        {streaming.map(([id, draft]) => (
          <li key={id} class="bubble" aria-busy="true">
            <p>{draft.text}</p>
            <span class="muted small">writing…</span>
          </li>
        ))}
      </ol>
      <form class="inline-form" onSubmit={send}>
        <label class="sr-only" for="chat-input">
          Message
        </label>
        <input
          id="chat-input"
          value={text}
          maxLength={16000}
          aria-describedby={error ? "chat-error" : undefined}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <button type="submit" class="small-button">
          Send
        </button>
      </form>
      {/* Right under the composer and its Send button: the draft stays in the field to send again. */}
      {error ? (
        <p id="chat-error" class="card-status error control-note" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
