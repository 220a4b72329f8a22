// Chat with a hosted agent: threads (kept on this device), the messages of one, and a composer. Replies appear as
// the hosted runtime writes them; until that API exists the view says chat is not enabled on this server.
import { useEffect, useState } from "preact/hooks";
import { z } from "zod";
import { ApiError, api, errorMessage, isNotEnabled } from "../api.ts";
import type { ViewProps } from "../app.tsx";
import { field, listOf, Rec, when } from "./records.tsx";

const Messages = listOf("messages");
const Thread = z.object({ id: z.string() });
const THREADS_KEY = "airlock.chat.threads";

function savedThreads(): string[] {
  try {
    const parsed = z.array(z.string()).safeParse(JSON.parse(localStorage.getItem(THREADS_KEY) ?? "[]"));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

type Availability = "checking" | "enabled" | "not_enabled" | "offline";

/** GET on the thread collection: 404 "No route" means no chat here; 200 or 405 (POST only) means chat exists. */
async function chatAvailability(): Promise<Availability> {
  try {
    await api("/v1/chat/threads", Rec);
    return "enabled";
  } catch (error) {
    if (isNotEnabled(error)) return "not_enabled";
    if (error instanceof ApiError && error.status === 405) return "enabled";
    return error instanceof ApiError && error.status === 0 ? "offline" : "enabled";
  }
}

export function ChatView(_: ViewProps) {
  const [availability, setAvailability] = useState<Availability>("checking");
  const [threads, setThreads] = useState<string[]>(savedThreads);
  const [thread, setThread] = useState<string | null>(() => savedThreads()[0] ?? null);
  const [messages, setMessages] = useState<Rec[]>([]);
  const [text, setText] = useState("");
  const [error, setError] = useState("");

  useEffect(() => {
    chatAvailability().then(setAvailability);
  }, []);
  const load = (id: string) =>
    api(`/v1/chat/threads/${encodeURIComponent(id)}/messages`, Messages).then(setMessages, (e: unknown) =>
      setError(errorMessage(e)),
    );
  useEffect(() => {
    if (thread && availability === "enabled") void load(thread);
  }, [thread, availability]);

  const newThread = async () => {
    setError("");
    try {
      const created = await api("/v1/chat/threads", Thread, { method: "POST", body: {} });
      const list = [created.id, ...threads].slice(0, 20);
      localStorage.setItem(THREADS_KEY, JSON.stringify(list));
      setThreads(list);
      setThread(created.id);
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
    const id = thread ?? (await newThread());
    if (!id) return;
    try {
      await api(`/v1/chat/threads/${encodeURIComponent(id)}/messages`, Rec, {
        method: "POST",
        body: { content },
      });
      setText("");
      await load(id);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <main class="view">
      <h1 class="section-title">Chat</h1>
      {availability === "checking" ? <p class="muted">Loading…</p> : null}
      {availability === "not_enabled" ? (
        <div class="panel notice" role="note">
          <p>
            <strong>Chat is not enabled on this server.</strong>
          </p>
          <p class="muted small">This Airlock does not run hosted agents yet.</p>
        </div>
      ) : null}
      {availability === "offline" ? <p role="alert">Offline: Airlock is unreachable.</p> : null}
      {availability === "enabled" ? (
        <>
          <div class="inline-form">
            <select
              value={thread ?? ""}
              onChange={(e) => setThread(e.currentTarget.value || null)}
              aria-label="Thread"
            >
              {threads.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
              {threads.length ? null : <option value="">No thread yet</option>}
            </select>
            <button type="button" class="small-button" onClick={() => void newThread()}>
              New thread
            </button>
          </div>
          <ol class="chat" aria-live="polite">
            {messages.map((m, i) => (
              <li key={field(m, "id") || i} class={`bubble ${field(m, "role") === "user" ? "mine" : ""}`}>
                <p>{field(m, "content", "text")}</p>
                <span class="muted small">{when(m, "created_at")}</span>
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
              maxLength={4000}
              onInput={(e) => setText(e.currentTarget.value)}
            />
            <button type="submit" class="small-button">
              Send
            </button>
          </form>
        </>
      ) : null}
      {error ? (
        <p class="card-status error" role="alert">
          {error}
        </p>
      ) : null}
    </main>
  );
}
