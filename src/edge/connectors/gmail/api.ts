// Gmail v1 as the tools use it: paths under /gmail/v1/users/me, the response shapes they read (parsed,
// never cast), and the scopes each kind of call needs (least privileged first).
import { z } from "zod";

const G = "https://www.googleapis.com/auth/";
export const GMAIL_READ_SCOPES = [`${G}gmail.readonly`, `${G}gmail.modify`, "https://mail.google.com/"];
/** A message's headers only (a reply's thread and Message-ID): gmail.compose and gmail.send cannot read them. */
export const GMAIL_METADATA_SCOPES = [
  `${G}gmail.readonly`,
  `${G}gmail.metadata`,
  `${G}gmail.modify`,
  "https://mail.google.com/",
];
export const GMAIL_DRAFT_SCOPES = [`${G}gmail.compose`, `${G}gmail.modify`, "https://mail.google.com/"];
export const GMAIL_SEND_SCOPES = [
  `${G}gmail.send`,
  `${G}gmail.compose`,
  `${G}gmail.modify`,
  "https://mail.google.com/",
];

export const gmailUrl = (base: string, path: string, query: Record<string, string | string[]> = {}) => {
  const url = new URL(`/gmail/v1/users/me/${path}`, base);
  for (const [k, v] of Object.entries(query))
    for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, one);
  return url.toString();
};

export const MessageList = z.object({
  messages: z.array(z.object({ id: z.string(), threadId: z.string() })).optional(),
  nextPageToken: z.string().optional(),
  resultSizeEstimate: z.number().optional(),
});

export const MessageMetadata = z.object({
  id: z.string(),
  threadId: z.string(),
  labelIds: z.array(z.string()).optional(),
  snippet: z.string().optional(),
  payload: z
    .object({ headers: z.array(z.object({ name: z.string(), value: z.string() })).optional() })
    .optional(),
});

export const RawMessage = z.object({
  id: z.string(),
  threadId: z.string(),
  labelIds: z.array(z.string()).optional(),
  raw: z.string(),
});

export const SentMessage = z.object({
  id: z.string(),
  threadId: z.string(),
  labelIds: z.array(z.string()).optional(),
});
export const Draft = z.object({ id: z.string(), message: SentMessage });

export function headerOf(m: z.infer<typeof MessageMetadata>, name: string): string | undefined {
  return m.payload?.headers?.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;
}
