// Gmail v1 and Calendar v3 as the contract server plays them: the request paths, parameters and response
// bodies of the published API (users.messages list/get/send, users.drafts.create, events
// list/insert/patch/delete/get, freeBusy.query), per account, in memory.
import PostalMime from "postal-mime";
import { googleError } from "./errors.ts";
import type { Answer, ContractState, Incoming } from "./state.ts";

const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const fromB64url = (text: string) => Buffer.from(text, "base64url");

export interface SeedMail {
  account: string;
  from: string;
  to?: string;
  subject: string;
  body: string;
  labels?: string[];
  threadId?: string;
  html?: boolean;
}

/** A received mail as Gmail stores it: RFC 5322 text, base64url in `raw`. */
export function seedMail(state: ContractState, m: SeedMail): { id: string; threadId: string } {
  const id = `m${(state.nextId++).toString(16).padStart(15, "0")}`;
  const threadId = m.threadId ?? `t${id.slice(1)}`;
  const messageId = `<${id}@mail.example.test>`;
  const text = [
    `From: ${m.from}`,
    `To: ${m.to ?? m.account}`,
    `Subject: ${m.subject}`,
    "Date: Thu, 26 Nov 2026 09:00:00 +0000",
    `Message-ID: ${messageId}`,
    "MIME-Version: 1.0",
    `Content-Type: ${m.html ? "text/html" : "text/plain"}; charset=utf-8`,
    "",
    m.body,
  ].join("\r\n");
  state.mailbox(m.account).push({
    id,
    threadId,
    labelIds: m.labels ?? ["INBOX", "UNREAD"],
    raw: b64url(text),
    headers: {
      From: m.from,
      To: m.to ?? m.account,
      Subject: m.subject,
      Date: "Thu, 26 Nov 2026 09:00:00 +0000",
      "Message-ID": messageId,
    },
    snippet: m.body.slice(0, 100),
  });
  return { id, threadId };
}

function matches(
  query: string,
  m: { labelIds: string[]; headers: Record<string, string>; raw: string },
): boolean {
  const text = fromB64url(m.raw).toString("utf8").toLowerCase();
  for (const word of query.toLowerCase().split(/\s+/).filter(Boolean)) {
    const [op, value = ""] = word.includes(":") ? word.split(/:(.*)/s) : ["", word];
    if (op === "is" && value === "unread" && !m.labelIds.includes("UNREAD")) return false;
    if (op === "in" && !m.labelIds.includes(value.toUpperCase())) return false;
    if (op === "from" && !(m.headers.From ?? "").toLowerCase().includes(value)) return false;
    if (op === "subject" && !(m.headers.Subject ?? "").toLowerCase().includes(value)) return false;
    if (op === "" && !text.includes(value)) return false;
  }
  return true;
}

export async function gmail(state: ContractState, req: Incoming, account: string): Promise<Answer> {
  const path = req.url.pathname.replace(/^\/gmail\/v1\/users\/me\//, "");
  const box = state.mailbox(account);
  if (req.method === "GET" && path === "messages") {
    const q = req.url.searchParams.get("q") ?? "";
    const max = Number(req.url.searchParams.get("maxResults") ?? "100");
    const found = box.filter((m) => matches(q, m));
    return {
      status: 200,
      body: {
        ...(found.length
          ? { messages: found.slice(0, max).map((m) => ({ id: m.id, threadId: m.threadId })) }
          : {}),
        resultSizeEstimate: found.length,
      },
    };
  }
  const one = /^messages\/([A-Za-z0-9_-]+)$/.exec(path);
  if (req.method === "GET" && one) {
    const m = box.find((x) => x.id === one[1]);
    if (!m) return googleError(404);
    const format = req.url.searchParams.get("format") ?? "full";
    const base = {
      id: m.id,
      threadId: m.threadId,
      labelIds: m.labelIds,
      snippet: m.snippet,
      historyId: "1",
      internalDate: "1795683600000",
      sizeEstimate: m.raw.length,
    };
    if (format === "raw") return { status: 200, body: { ...base, raw: m.raw } };
    const wanted = req.url.searchParams.getAll("metadataHeaders").map((h) => h.toLowerCase());
    const headers = Object.entries(m.headers)
      .filter(([name]) => format !== "metadata" || wanted.length === 0 || wanted.includes(name.toLowerCase()))
      .map(([name, value]) => ({ name, value }));
    return { status: 200, body: { ...base, payload: { partId: "", mimeType: "text/plain", headers } } };
  }
  if (req.method === "POST" && (path === "messages/send" || path === "drafts")) {
    const body = req.json as {
      raw?: string;
      threadId?: string;
      message?: { raw?: string; threadId?: string };
    } | null;
    const message = path === "drafts" ? body?.message : body;
    if (!message?.raw)
      return {
        status: 400,
        body: { error: { code: 400, message: "Recipient address required", status: "INVALID_ARGUMENT" } },
      };
    const parsed = await PostalMime.parse(fromB64url(message.raw));
    const header = (name: string) => parsed.headers.find((h) => h.key === name.toLowerCase())?.value ?? null;
    const addresses = (list: typeof parsed.to) =>
      (list ?? []).flatMap((a) => (a.address ? [a.address] : (a.group ?? []).map((g) => g.address)));
    const id = `s${(state.nextId++).toString(16).padStart(15, "0")}`;
    const threadId = message.threadId ?? `t${id.slice(1)}`;
    const record = {
      id,
      threadId,
      account,
      from: parsed.from && "address" in parsed.from ? (parsed.from.address ?? "") : "",
      to: addresses(parsed.to),
      cc: addresses(parsed.cc),
      bcc: addresses(parsed.bcc),
      subject: parsed.subject ?? "",
      text: parsed.text ?? "",
      idempotencyKey: header("x-airlock-idempotency-key"),
      inReplyTo: parsed.inReplyTo ?? null,
    };
    if (path === "drafts") {
      state.drafts.push(record);
      return { status: 200, body: { id: `r${id.slice(1)}`, message: { id, threadId, labelIds: ["DRAFT"] } } };
    }
    state.sends.push(record);
    return { status: 200, body: { id, threadId, labelIds: ["SENT"] } };
  }
  return googleError(404);
}

const BASE32HEX = /^[a-v0-9]{5,1024}$/;

export function calendar(state: ContractState, req: Incoming, account: string): Answer {
  const path = req.url.pathname.replace(/^\/calendar\/v3\//, "");
  if (req.method === "POST" && path === "freeBusy") {
    const body = req.json as { timeMin?: string; timeMax?: string; items?: { id: string }[] } | null;
    const min = Date.parse(body?.timeMin ?? "");
    const max = Date.parse(body?.timeMax ?? "");
    if (Number.isNaN(min) || Number.isNaN(max)) return googleError(400);
    const calendars: Record<string, unknown> = {};
    for (const { id } of body?.items ?? []) {
      const events = state
        .calendar(account, id)
        .filter((e) => Date.parse(e.end) > min && Date.parse(e.start) < max);
      calendars[id] = { busy: events.map((e) => ({ start: e.start, end: e.end })) };
    }
    return {
      status: 200,
      body: { kind: "calendar#freeBusy", timeMin: body?.timeMin, timeMax: body?.timeMax, calendars },
    };
  }
  const m = /^calendars\/([^/]+)\/events(?:\/([^/]+))?$/.exec(path);
  if (!m?.[1]) return googleError(404);
  const calendarId = decodeURIComponent(m[1]);
  const events = state.calendar(account, calendarId);
  const eventId = m[2];
  const view = (e: (typeof events)[number]) => ({
    kind: "calendar#event",
    id: e.id,
    status: e.deleted ? "cancelled" : "confirmed",
    htmlLink: `https://calendar.example.test/event?eid=${e.id}`,
    summary: e.summary,
    ...(e.description ? { description: e.description } : {}),
    ...(e.location ? { location: e.location } : {}),
    start: { dateTime: e.start },
    end: { dateTime: e.end },
    organizer: { email: account, self: true },
    ...(e.attendees.length
      ? { attendees: e.attendees.map((email) => ({ email, responseStatus: "needsAction" })) }
      : {}),
  });
  if (req.method === "GET" && !eventId) {
    const min = Date.parse(req.url.searchParams.get("timeMin") ?? "") || -Infinity;
    const max = Date.parse(req.url.searchParams.get("timeMax") ?? "") || Infinity;
    const items = events
      .filter((e) => !e.deleted && Date.parse(e.end) > min && Date.parse(e.start) < max)
      .sort((a, b) => Date.parse(a.start) - Date.parse(b.start))
      .map(view);
    return { status: 200, body: { kind: "calendar#events", summary: calendarId, timeZone: "UTC", items } };
  }
  if (req.method === "POST" && !eventId) {
    const body = (req.json ?? {}) as Record<string, unknown>;
    const id = typeof body.id === "string" ? body.id : `e${(state.nextId++).toString(32)}`;
    if (!BASE32HEX.test(id))
      return {
        status: 400,
        body: {
          error: {
            code: 400,
            message: "Invalid resource id value.",
            errors: [{ reason: "invalid" }],
            status: "INVALID_ARGUMENT",
          },
        },
      };
    if (events.some((e) => e.id === id)) return googleError(409);
    const when = (w: unknown) => (w as { dateTime?: string } | undefined)?.dateTime ?? "";
    const event = {
      id,
      summary: String(body.summary ?? ""),
      description: typeof body.description === "string" ? body.description : undefined,
      location: typeof body.location === "string" ? body.location : undefined,
      start: when(body.start),
      end: when(body.end),
      attendees: ((body.attendees as { email: string }[] | undefined) ?? []).map((a) => a.email),
      deleted: false,
      sendUpdates: req.url.searchParams.get("sendUpdates"),
    };
    events.push(event);
    return { status: 200, body: view(event) };
  }
  const event = events.find((e) => e.id === eventId);
  if (!event) return googleError(404);
  if (event.deleted) return googleError(410);
  if (req.method === "GET") return { status: 200, body: view(event) };
  if (req.method === "PATCH") {
    const body = (req.json ?? {}) as Record<string, unknown>;
    if (typeof body.summary === "string") event.summary = body.summary;
    if (typeof body.description === "string") event.description = body.description;
    if (typeof body.location === "string") event.location = body.location;
    const start = (body.start as { dateTime?: string } | undefined)?.dateTime;
    const end = (body.end as { dateTime?: string } | undefined)?.dateTime;
    if (start) event.start = start;
    if (end) event.end = end;
    if (Array.isArray(body.attendees))
      event.attendees = (body.attendees as { email: string }[]).map((a) => a.email);
    event.sendUpdates = req.url.searchParams.get("sendUpdates");
    return { status: 200, body: view(event) };
  }
  if (req.method === "DELETE") {
    event.deleted = true;
    return { status: 204, body: null };
  }
  return googleError(404);
}
