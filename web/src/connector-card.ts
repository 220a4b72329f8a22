// What a connector proposal's card shows, per tool: an email's From/To/Subject and a body preview, an
// event's when and who, a pull request's repo, branches and title. Built from the card's redacted args
// (JSON text) and the backend's `where` line (which names the account); every value is untrusted text
// and is rendered through visibleText by the view. Null: not a connector tool (the generic card shows).

export interface ConnectorCard {
  kind: "email" | "event" | "github" | "search";
  /** Label and value pairs, in the order a person reads them. */
  rows: [string, string][];
  /** A preview of the text that leaves (a mail's body, a comment), cut to PREVIEW_CHARS. */
  preview?: string;
}

export const PREVIEW_CHARS = 400;

type Args = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const list = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
const cut = (s: string) => (s.length > PREVIEW_CHARS ? `${s.slice(0, PREVIEW_CHARS - 1)}…` : s);

function parsed(argsText: string): Args | null {
  try {
    const v: unknown = JSON.parse(argsText);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Args) : null;
  } catch {
    return null;
  }
}

/** "as you" vs "as the assistant": said on every card, prominently. */
export function identityLabel(identity: "user" | "bot"): string {
  return identity === "user" ? "As you" : "As the assistant";
}

/** The account out of the backend's `where` ("Gmail, from alice@example.com (as you)"), else the line itself. */
const senderOf = (where: string) => /\bfrom (\S+@\S+)/.exec(where)?.[1] ?? where;

function emailCard(a: Args, where: string): ConnectorCard {
  const rows: [string, string][] = [["From", senderOf(where)]];
  rows.push(["To", list(a.to).join(", ") || "(nobody yet)"]);
  const cc = list(a.cc);
  const bcc = list(a.bcc);
  if (cc.length) rows.push(["Cc", cc.join(", ")]);
  if (bcc.length) rows.push(["Bcc", bcc.join(", ")]);
  rows.push(["Subject", str(a.subject) ?? "(no subject)"]);
  if (str(a.message_id)) rows.push(["In reply to", `message ${a.message_id}`]);
  return { kind: "email", rows, preview: cut(str(a.body) ?? "") };
}

function eventCard(a: Args, where: string): ConnectorCard {
  const rows: [string, string][] = [["Calendar", where]];
  if (str(a.event_id)) rows.push(["Event", String(a.event_id)]);
  if (str(a.title)) rows.push(["Title", String(a.title)]);
  if (str(a.start) || str(a.end))
    rows.push(["When", `${str(a.start) ?? "same start"} → ${str(a.end) ?? "same end"}`]);
  if (Array.isArray(a.attendees)) rows.push(["Who", list(a.attendees).join(", ") || "no invitees"]);
  if (str(a.location)) rows.push(["Where", String(a.location)]);
  return { kind: "event", rows, ...(str(a.description) ? { preview: cut(String(a.description)) } : {}) };
}

function githubCard(tool: string, a: Args, where: string): ConnectorCard {
  const rows: [string, string][] = [["Repository", str(a.repo) ?? "?"]];
  if (typeof a.number === "number")
    rows.push([tool === "github.issue.comment" ? "Issue / PR" : "Pull request", `#${a.number}`]);
  if (str(a.head) || str(a.base)) rows.push(["Branch", `${str(a.head) ?? "?"} → ${str(a.base) ?? "?"}`]);
  if (str(a.title)) rows.push(["Title", String(a.title)]);
  if (str(a.merge_method))
    rows.push(["Merge", `${a.merge_method}${str(a.sha) ? ` at ${String(a.sha).slice(0, 12)}` : ""}`]);
  rows.push(["Account", where]);
  return { kind: "github", rows, ...(str(a.body) ? { preview: cut(String(a.body)) } : {}) };
}

export function connectorCard(tool: string, argsText: string, where: string): ConnectorCard | null {
  const family = tool.split(".")[0];
  if (family !== "gmail" && family !== "calendar" && family !== "github" && tool !== "web.search")
    return null;
  const a = parsed(argsText);
  if (!a) return null;
  if (family === "gmail") return emailCard(a, where);
  if (family === "calendar") return eventCard(a, where);
  if (family === "github") return githubCard(tool, a, where);
  return { kind: "search", rows: [["Search", str(a.query) ?? ""]] };
}
