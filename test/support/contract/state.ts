// The contract servers' memory: mailboxes, calendars, repositories, what was sent, and the faults a test
// asked for, all keyed by account so parallel tests never see each other's mail.
export interface Incoming {
  method: string;
  url: URL;
  headers: Record<string, string | string[] | undefined>;
  json: unknown;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface StoredMail {
  id: string;
  threadId: string;
  labelIds: string[];
  raw: string;
  headers: Record<string, string>;
  snippet: string;
}

export interface SentMail {
  id: string;
  threadId: string;
  account: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text: string;
  idempotencyKey: string | null;
  inReplyTo: string | null;
}

export interface StoredEvent {
  id: string;
  summary: string;
  description: string | undefined;
  location: string | undefined;
  start: string;
  end: string;
  attendees: string[];
  deleted: boolean;
  sendUpdates: string | null;
}

export interface GitHubIssue {
  number: number;
  title: string;
  body: string;
  state: string;
  author: string;
  comments: { id: number; body: string; author: string }[];
  pull?: { head: string; base: string; sha: string; merged: boolean; mergeable: boolean };
}

export type ContractApi = "gmail" | "calendar" | "github" | "brave";

export interface Fault {
  api: ContractApi;
  /** Only requests by this account (Brave: any). */
  account?: string;
  /** Only paths (with query) containing this text. */
  pathIncludes?: string;
  method?: string;
  status: number;
  /** The variant of the status: a 403 for a missing scope, or a rate limit. */
  kind?: "scope" | "rate";
  /** Retry-After in seconds (429, rate-limit 403). */
  retryAfter?: number;
  /** How many matching requests get it (default 1). */
  times?: number;
}

export interface RequestRecord {
  api: ContractApi;
  method: string;
  path: string;
  account: string | null;
  tokenGeneration: number | null;
  /** Which kind of bearer it was: a test token (contract/tokens.ts) or one the OAuth contract server issued. */
  tokenKind: "test" | "oauth" | null;
  /** The bearer itself (test servers only: e2e tests check the send used the token the OAuth flow obtained). */
  token: string | null;
  status: number;
}

export class ContractState {
  nextId = 1;
  readonly mail = new Map<string, StoredMail[]>();
  readonly events = new Map<string, StoredEvent[]>();
  readonly repos = new Map<string, Map<number, GitHubIssue>>();
  readonly sends: SentMail[] = [];
  readonly drafts: SentMail[] = [];
  readonly comments: { account: string; repo: string; number: number; body: string }[] = [];
  readonly merges: { account: string; repo: string; number: number; method: string }[] = [];
  readonly pulls: {
    account: string;
    repo: string;
    number: number;
    head: string;
    base: string;
    title: string;
  }[] = [];
  readonly requests: RequestRecord[] = [];
  faults: (Fault & { left: number })[] = [];

  mailbox(account: string): StoredMail[] {
    const box = this.mail.get(account) ?? [];
    this.mail.set(account, box);
    return box;
  }

  calendar(account: string, calendarId: string): StoredEvent[] {
    const key = `${account}|${calendarId === "primary" ? account : calendarId}`;
    const list = this.events.get(key) ?? [];
    this.events.set(key, list);
    return list;
  }

  repo(name: string): Map<number, GitHubIssue> {
    const r = this.repos.get(name) ?? new Map<number, GitHubIssue>();
    this.repos.set(name, r);
    return r;
  }

  /** The first fault that matches this request, spent once. */
  takeFault(api: ContractApi, account: string | null, method: string, path: string): Fault | undefined {
    const i = this.faults.findIndex(
      (f) =>
        f.api === api &&
        (f.account === undefined || f.account === account) &&
        (f.method === undefined || f.method === method) &&
        (f.pathIncludes === undefined || path.includes(f.pathIncludes)),
    );
    const fault = this.faults[i];
    if (!fault) return undefined;
    fault.left--;
    if (fault.left <= 0) this.faults.splice(i, 1);
    return fault;
  }
}
