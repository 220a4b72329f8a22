// gmail.search and gmail.read (READ): the identity's own mailbox. Mail is someone else's words: every
// result is labelled untrusted and taints the context it lands in.
import { z } from "zod";
import { type ConveyorTool, failed } from "../../conveyor/tool.ts";
import { isOutcome, openSession, readOutcome, readTool } from "../connector-tool.ts";
import type { ConnectorDeps } from "../deps.ts";
import { GMAIL_READ_SCOPES, gmailUrl, headerOf, MessageList, MessageMetadata, RawMessage } from "./api.ts";
import { base64UrlToBytes, parseRaw } from "./mime.ts";

const TIMEOUT_MS = 15_000;
/** The most of one mail's text a result carries (the model sees at most 16,000 characters of a result). */
const MAX_BODY_CHARS = 12_000;

const SearchArgs = z.strictObject({
  /** Gmail's own search syntax, e.g. `is:unread in:inbox`. */
  query: z.string().trim().min(1).max(500),
  max_results: z.number().int().min(1).max(25).default(10),
});
type SearchArgs = z.infer<typeof SearchArgs>;

const ReadArgs = z.strictObject({
  message_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "a Gmail message id"),
});
type ReadArgs = z.infer<typeof ReadArgs>;

export function gmailSearch(deps: ConnectorDeps): ConveyorTool<SearchArgs> {
  return {
    name: "gmail.search",
    description:
      "Search the mailbox with Gmail search syntax (e.g. `is:unread in:inbox`); answers id, thread, from, subject, date and snippet of each match.",
    schema: SearchArgs,
    ...readTool("google"),
    summary: (a) => ({
      what: "Search mail",
      where: "Gmail",
      impact: `None: lists mail matching "${a.query}".`,
    }),
    grantScope: () => "gmail:read",
    timeoutMs: (a) => TIMEOUT_MS * (1 + a.max_results),
    async execute(a, ctx) {
      const session = await openSession(deps, ctx, "google", GMAIL_READ_SCOPES);
      if (isOutcome(session)) return session;
      const base = deps.endpoints().gmail;
      const listed = await session.request({
        method: "GET",
        url: gmailUrl(base, "messages", { q: a.query, maxResults: String(a.max_results) }),
        read: true,
        timeoutMs: TIMEOUT_MS,
      });
      if (!listed.ok) return listed.outcome;
      const list = MessageList.safeParse(listed.json);
      if (!list.success) return failed("command_error", "Gmail answered a message list Airlock cannot read");
      const found = [];
      for (const m of list.data.messages ?? []) {
        const got = await session.request({
          method: "GET",
          url: gmailUrl(base, `messages/${m.id}`, {
            format: "metadata",
            metadataHeaders: ["From", "To", "Subject", "Date"],
          }),
          read: true,
          timeoutMs: TIMEOUT_MS,
        });
        if (!got.ok) return got.outcome;
        const meta = MessageMetadata.safeParse(got.json);
        if (!meta.success) return failed("command_error", "Gmail answered a message Airlock cannot read");
        found.push({
          id: meta.data.id,
          thread_id: meta.data.threadId,
          from: headerOf(meta.data, "From") ?? "",
          subject: headerOf(meta.data, "Subject") ?? "",
          date: headerOf(meta.data, "Date") ?? "",
          unread: meta.data.labelIds?.includes("UNREAD") ?? false,
          snippet: meta.data.snippet ?? "",
        });
      }
      const text = found.length
        ? found
            .map(
              (f) =>
                `- id ${f.id} (thread ${f.thread_id})${f.unread ? " [unread]" : ""}: from ${f.from}, "${f.subject}", ${f.date}\n  ${f.snippet}`,
            )
            .join("\n")
        : `No mail matches "${a.query}".`;
      return readOutcome(
        { account: session.account, messages: found, text },
        `${found.length} message${found.length === 1 ? "" : "s"}`,
      );
    },
  };
}

export function gmailRead(deps: ConnectorDeps): ConveyorTool<ReadArgs> {
  return {
    name: "gmail.read",
    description: "Read one mail by id: headers and its text (parsed from the MIME message).",
    schema: ReadArgs,
    ...readTool("google"),
    summary: (a) => ({ what: "Read a mail", where: "Gmail", impact: `None: reads message ${a.message_id}.` }),
    grantScope: () => "gmail:read",
    timeoutMs: () => TIMEOUT_MS * 3,
    async execute(a, ctx) {
      const session = await openSession(deps, ctx, "google", GMAIL_READ_SCOPES);
      if (isOutcome(session)) return session;
      const got = await session.request({
        method: "GET",
        url: gmailUrl(deps.endpoints().gmail, `messages/${a.message_id}`, { format: "raw" }),
        read: true,
        timeoutMs: TIMEOUT_MS,
      });
      if (!got.ok) return got.outcome;
      const raw = RawMessage.safeParse(got.json);
      if (!raw.success) return failed("command_error", "Gmail answered a message Airlock cannot read");
      const mail = await parseRaw(base64UrlToBytes(raw.data.raw), MAX_BODY_CHARS);
      const head = [
        `From: ${mail.from}`,
        `To: ${mail.to.join(", ")}`,
        ...(mail.cc.length ? [`Cc: ${mail.cc.join(", ")}`] : []),
        `Subject: ${mail.subject}`,
        `Date: ${mail.date ?? ""}`,
        `Message id: ${raw.data.id} (thread ${raw.data.threadId})`,
        ...(mail.attachments.length
          ? [
              `Attachments: ${mail.attachments.map((x) => `${x.filename ?? "(unnamed)"} (${x.mimeType})`).join(", ")}`,
            ]
          : []),
      ];
      const text = `${head.join("\n")}\n\n${mail.text}${mail.truncated ? "\n[…cut]" : ""}`;
      return readOutcome(
        {
          account: session.account,
          id: raw.data.id,
          thread_id: raw.data.threadId,
          labels: raw.data.labelIds ?? [],
          from: mail.from,
          to: mail.to,
          cc: mail.cc,
          subject: mail.subject,
          date: mail.date,
          message_id_header: mail.messageId,
          attachments: mail.attachments,
          text,
        },
        `read ${raw.data.id}`,
      );
    },
  };
}
