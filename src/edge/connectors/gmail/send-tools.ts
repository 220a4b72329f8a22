// gmail.draft (WRITE: stays in the mailbox), gmail.send and gmail.reply (EXFILTRATION: mail leaves). The
// card shows recipients, subject and body; the message is built by mimetext with the run's idempotency key
// as a header, sent once: a send is never repeated on its own (idempotentDownstream false), so a crash
// after the send ends PARTIAL, never as a second mail.
import { z } from "zod";
import type { RiskClass } from "../../../policy/risk-class.ts";
import type { ProposalSummary } from "../../../protocol/conveyor.ts";
import {
  type ConveyorTool,
  failed,
  type ProposalContext,
  type ToolContext,
  type ToolOutcome,
} from "../../conveyor/tool.ts";
import type { ConnectorSession } from "../api-call.ts";
import {
  EmailAddress,
  isOutcome,
  OneLine,
  openSession,
  recipientScope,
  writeOutcome,
} from "../connector-tool.ts";
import { type ConnectorDeps, identityWords } from "../deps.ts";
import {
  Draft,
  GMAIL_DRAFT_SCOPES,
  GMAIL_METADATA_SCOPES,
  GMAIL_SEND_SCOPES,
  gmailUrl,
  headerOf,
  MessageMetadata,
  SentMessage,
} from "./api.ts";
import { buildRaw, IDEMPOTENCY_HEADER } from "./mime.ts";

const TIMEOUT_MS = 20_000;
const Recipients = z.array(EmailAddress).max(50);
const MessageId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "a Gmail message id");

const mailFields = {
  to: Recipients.min(1, "at least one recipient"),
  cc: Recipients.default([]),
  bcc: Recipients.default([]),
  subject: OneLine(500),
  body: z.string().max(100_000),
};

const SendArgs = z.strictObject(mailFields);
const ReplyArgs = z.strictObject({ message_id: MessageId, ...mailFields });
const DraftArgs = z.strictObject({
  ...mailFields,
  to: Recipients.default([]),
  reply_to_message_id: MessageId.optional(),
});
type SendArgs = z.infer<typeof SendArgs>;
type ReplyArgs = z.infer<typeof ReplyArgs>;
type DraftArgs = z.infer<typeof DraftArgs>;
type Mail = z.infer<typeof SendArgs>;

const everyone = (a: Mail) => [...a.to, ...a.cc, ...a.bcc];

function mailSummary(verb: string, a: Mail, from: string): ProposalSummary {
  const people = everyone(a);
  return {
    what: `${verb} "${a.subject}" to ${a.to.join(", ") || "(no recipient yet)"}`,
    where: from,
    impact:
      verb === "Draft"
        ? `Saves a draft in the mailbox; nothing is sent (${a.body.length} characters).`
        : `Sends ${a.body.length} characters to ${people.length} ${people.length === 1 ? "person" : "people"}: ${people.join(", ")}.`,
  };
}

/** Who the mail is from, for the card: the identity's Google account, or that there is none yet. */
async function fromLine(deps: ConnectorDeps, ctx: ProposalContext): Promise<string> {
  const access = await deps.tokens.access(ctx.userId, "google", ctx.identity).catch(() => null);
  return access && access.identity === ctx.identity
    ? `Gmail, from ${access.account} (${identityWords(ctx.identity)})`
    : `Gmail ${identityWords(ctx.identity)} (no Google connection yet)`;
}

interface Thread {
  threadId: string;
  inReplyTo?: string;
  references?: string;
}

/**
 * The original mail's thread and Message-ID, so the reply lands in its conversation. Reading them needs a read
 * scope the send scopes do not give: checked before anything is sent, and named if Google refuses.
 */
async function threadOf(
  session: ConnectorSession,
  deps: ConnectorDeps,
  id: string,
): Promise<Thread | ToolOutcome> {
  const lacking = session.alsoNeeds(GMAIL_METADATA_SCOPES);
  if (lacking) return lacking;
  const got = await session.request({
    method: "GET",
    url: gmailUrl(deps.endpoints().gmail, `messages/${id}`, {
      format: "metadata",
      metadataHeaders: ["Message-ID", "References"],
    }),
    read: true,
    scopes: GMAIL_METADATA_SCOPES,
    timeoutMs: TIMEOUT_MS,
  });
  if (!got.ok) return got.outcome;
  const meta = MessageMetadata.safeParse(got.json);
  if (!meta.success) return failed("command_error", "Gmail answered a message Airlock cannot read");
  const messageId = headerOf(meta.data, "Message-ID");
  const references = headerOf(meta.data, "References");
  return {
    threadId: meta.data.threadId,
    ...(messageId ? { inReplyTo: messageId } : {}),
    ...(messageId ? { references: [references, messageId].filter(Boolean).join(" ") } : {}),
  };
}

/**
 * The message as a send or a draft carries it: from the account the run acts as, with the run's idempotency
 * key as a header and, for a reply, the original's thread.
 */
async function messageOf(
  session: ConnectorSession,
  deps: ConnectorDeps,
  ctx: ToolContext,
  a: Mail,
  replyTo: string | undefined,
): Promise<{ raw: string; thread: Thread | undefined } | ToolOutcome> {
  const thread = replyTo ? await threadOf(session, deps, replyTo) : undefined;
  if (isOutcome(thread)) return thread;
  const raw = buildRaw({
    from: session.account,
    ...a,
    idempotencyKey: ctx.idempotencyKey,
    ...(thread ?? {}),
  });
  return { raw, thread };
}

async function sendMail(
  deps: ConnectorDeps,
  ctx: ToolContext,
  a: Mail,
  replyTo: string | undefined,
): Promise<ToolOutcome> {
  const session = await openSession(deps, ctx, "google", GMAIL_SEND_SCOPES);
  if (isOutcome(session)) return session;
  const message = await messageOf(session, deps, ctx, a, replyTo);
  if (isOutcome(message)) return message;
  const { raw, thread } = message;
  const sent = await session.request({
    method: "POST",
    url: gmailUrl(deps.endpoints().gmail, "messages/send"),
    json: { raw, ...(thread ? { threadId: thread.threadId } : {}) },
    read: false,
    timeoutMs: TIMEOUT_MS,
  });
  if (!sent.ok) return sent.outcome;
  const answer = SentMessage.safeParse(sent.json);
  return writeOutcome(
    {
      account: session.account,
      id: answer.success ? answer.data.id : null,
      thread_id: answer.success ? answer.data.threadId : (thread?.threadId ?? null),
      to: a.to,
      cc: a.cc,
      bcc: a.bcc,
      subject: a.subject,
      idempotency_header: `${IDEMPOTENCY_HEADER}: ${ctx.idempotencyKey}`,
    },
    `sent as ${session.account}${answer.success ? `, message ${answer.data.id}` : ""}`,
  );
}

const sendBase = {
  riskClass: (): RiskClass => "EXFILTRATION",
  connection: "google" as const,
  external: true,
  // Gmail does not deduplicate sends: after a crash mid-send the run ends PARTIAL, never a second mail.
  idempotentDownstream: false,
  grantCoversHigh: false,
  timeoutMs: () => TIMEOUT_MS * 3,
  // "Always" covers exactly these recipients, nobody else.
  grantScope: (a: Mail) => `to:${recipientScope([a.to, a.cc, a.bcc])}`,
};

/** A mail tool's card: "Gmail" before the connection is known, then the account the mail is from. */
function mailCard(deps: ConnectorDeps, verb: string, riskClass: RiskClass) {
  return {
    summary: (a: Mail) => mailSummary(verb, a, "Gmail"),
    contextual: async (a: Mail, ctx: ProposalContext) => ({
      riskClass,
      summary: mailSummary(verb, a, await fromLine(deps, ctx)),
    }),
  };
}

export function gmailSend(deps: ConnectorDeps): ConveyorTool<SendArgs> {
  return {
    ...sendBase,
    name: "gmail.send",
    description: "Send a new plain-text email (to, cc, bcc, subject, body).",
    schema: SendArgs,
    ...mailCard(deps, "Email", "EXFILTRATION"),
    execute: (a, ctx) => sendMail(deps, ctx, a, undefined),
  };
}

export function gmailReply(deps: ConnectorDeps): ConveyorTool<ReplyArgs> {
  return {
    ...sendBase,
    name: "gmail.reply",
    description: "Reply in the thread of a mail (by its message id), to the recipients given.",
    schema: ReplyArgs,
    ...mailCard(deps, "Reply", "EXFILTRATION"),
    execute: (a, ctx) => sendMail(deps, ctx, a, a.message_id),
  };
}

export function gmailDraft(deps: ConnectorDeps): ConveyorTool<DraftArgs> {
  return {
    name: "gmail.draft",
    description: "Save a draft in the mailbox (optionally a reply to a message id); nothing is sent.",
    schema: DraftArgs,
    riskClass: () => "WRITE",
    connection: "google",
    external: true,
    idempotentDownstream: false,
    grantCoversHigh: false,
    ...mailCard(deps, "Draft", "WRITE"),
    grantScope: () => "gmail:drafts",
    timeoutMs: () => TIMEOUT_MS * 3,
    async execute(a, ctx) {
      const session = await openSession(deps, ctx, "google", GMAIL_DRAFT_SCOPES);
      if (isOutcome(session)) return session;
      const message = await messageOf(session, deps, ctx, a, a.reply_to_message_id);
      if (isOutcome(message)) return message;
      const { raw, thread } = message;
      const made = await session.request({
        method: "POST",
        url: gmailUrl(deps.endpoints().gmail, "drafts"),
        json: { message: { raw, ...(thread ? { threadId: thread.threadId } : {}) } },
        read: false,
        timeoutMs: TIMEOUT_MS,
      });
      if (!made.ok) return made.outcome;
      const draft = Draft.safeParse(made.json);
      return writeOutcome(
        { account: session.account, draft_id: draft.success ? draft.data.id : null, subject: a.subject },
        `draft saved${draft.success ? ` (${draft.data.id})` : ""}`,
      );
    },
  };
}
