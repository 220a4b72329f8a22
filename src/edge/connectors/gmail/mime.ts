// RFC 5322 messages in and out: built with mimetext (its browser build runs in workerd), parsed with
// postal-mime. The idempotency key rides in the message as X-Airlock-Idempotency-Key.
import { createMimeMessage } from "mimetext/browser";
import PostalMime, { type Address } from "postal-mime";

export const IDEMPOTENCY_HEADER = "X-Airlock-Idempotency-Key";

export interface OutgoingMail {
  from: string;
  to: readonly string[];
  cc: readonly string[];
  bcc: readonly string[];
  subject: string;
  body: string;
  /** The run's idempotency key, recorded in the message so a person (or a check) can find the one send. */
  idempotencyKey: string;
  /** A reply: the original's Message-ID, and the chain it continues. */
  inReplyTo?: string;
  references?: string;
}

/** The message as Gmail's `raw` wants it: base64url of the RFC 5322 text. */
export function buildRaw(mail: OutgoingMail): string {
  const msg = createMimeMessage();
  msg.setSender(mail.from);
  msg.setTo([...mail.to]);
  if (mail.cc.length) msg.setCc([...mail.cc]);
  if (mail.bcc.length) msg.setBcc([...mail.bcc]);
  msg.setSubject(mail.subject);
  msg.setHeader(IDEMPOTENCY_HEADER, mail.idempotencyKey);
  if (mail.inReplyTo) msg.setHeader("In-Reply-To", mail.inReplyTo);
  if (mail.references) msg.setHeader("References", mail.references);
  msg.addMessage({ contentType: "text/plain", data: mail.body });
  return msg.asEncoded();
}

export function base64UrlToBytes(text: string): Uint8Array {
  const b64 = text.replaceAll("-", "+").replaceAll("_", "/");
  const padded = b64 + "=".repeat((4 - (b64.length % 4)) % 4);
  const bin = atob(padded);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export interface ParsedMail {
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  date: string | null;
  messageId: string | null;
  references: string | null;
  /** Plain text (the HTML part's text when there is no plain part), cut to `maxChars`. */
  text: string;
  truncated: boolean;
  attachments: { filename: string | null; mimeType: string; bytes: number }[];
}

const addressText = (a: Address): string[] =>
  a.group ? a.group.map((m) => m.address) : [a.name ? `${a.name} <${a.address}>` : a.address];

/** HTML to text for mail without a plain part: tags dropped, the common entities decoded. */
function htmlText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<br\s*\/?>|<\/p>/gi, "\n")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/[ \t]+/g, " ")
    .trim();
}

export async function parseRaw(raw: Uint8Array, maxChars: number): Promise<ParsedMail> {
  const email = await PostalMime.parse(raw);
  const full = email.text ?? (email.html ? htmlText(email.html) : "");
  return {
    from: email.from ? (addressText(email.from)[0] ?? "") : "",
    to: (email.to ?? []).flatMap(addressText),
    cc: (email.cc ?? []).flatMap(addressText),
    subject: email.subject ?? "",
    date: email.date ?? null,
    messageId: email.messageId ?? null,
    references: email.references ?? null,
    text: full.slice(0, maxChars),
    truncated: full.length > maxChars,
    attachments: email.attachments.map((a) => ({
      filename: a.filename ?? null,
      mimeType: a.mimeType,
      bytes: typeof a.content === "string" ? a.content.length : a.content.byteLength,
    })),
  };
}
