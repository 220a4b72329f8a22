// Tests' side of the contract servers' control port: seed mail and repositories, inject faults, read
// what reached the providers (from workerd or Node alike: plain fetch).
import type { SeedMail } from "./google.ts";
import type { Fault, GitHubIssue, RequestRecord, SentMail, StoredEvent } from "./state.ts";

export interface ContractStats {
  requests: RequestRecord[];
  sends: SentMail[];
  drafts: SentMail[];
  comments: { account: string; repo: string; number: number; body: string }[];
  merges: { account: string; repo: string; number: number; method: string }[];
  pulls: { account: string; repo: string; number: number; head: string; base: string; title: string }[];
  events: StoredEvent[];
}

export function contractClient(controlUrl: string) {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${controlUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`contract control ${path}: ${res.status}`);
    return res.json();
  };
  return {
    mail: (m: SeedMail) => post("/mail", m) as Promise<{ id: string; threadId: string }>,
    issue: (i: Omit<GitHubIssue, "comments"> & { repo: string; comments?: GitHubIssue["comments"] }) =>
      post("/github/issue", i),
    fault: (f: Fault) => post("/fault", f),
    stats: async (account?: string): Promise<ContractStats> =>
      (
        await fetch(`${controlUrl}/stats${account ? `?account=${encodeURIComponent(account)}` : ""}`)
      ).json() as Promise<ContractStats>,
  };
}

/** A fresh account per test, so parallel tests never share a mailbox. */
export const uniqueAccount = (label: string, domain = "example.com") =>
  `${label}-${crypto.randomUUID().slice(0, 8)}@${domain}`;
