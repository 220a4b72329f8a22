// GitHub REST as the contract server plays it: issues and their comments, pulls (get, create, merge) with
// the published response fields and error answers (404, 405 not mergeable, 409 head moved, 422).
import { githubError } from "./errors.ts";
import type { Answer, ContractState, GitHubIssue, Incoming } from "./state.ts";

const user = (login: string) => ({ login, id: login.length, type: "User" });

export function github(state: ContractState, req: Incoming, account: string): Answer {
  const m = /^\/repos\/([^/]+\/[^/]+)\/(issues|pulls)(?:\/(\d+))?(?:\/(comments|merge))?$/.exec(
    req.url.pathname,
  );
  if (!m?.[1]) return githubError(404);
  const [, repoName, kind, num, sub] = m;
  const repo = state.repo(repoName ?? "");
  const html = (n: number, what: string) => `https://github.example.test/${repoName}/${what}/${n}`;
  if (kind === "pulls" && !num && req.method === "POST") {
    const body = (req.json ?? {}) as {
      title?: string;
      head?: string;
      base?: string;
      body?: string;
      draft?: boolean;
    };
    if (!body.title || !body.head || !body.base) return githubError(422);
    const number = Math.max(0, ...repo.keys()) + 1;
    const sha = "a".repeat(40);
    const issue: GitHubIssue = {
      number,
      title: body.title,
      body: body.body ?? "",
      state: "open",
      author: account,
      comments: [],
      pull: { head: body.head, base: body.base, sha, merged: false, mergeable: true },
    };
    repo.set(number, issue);
    state.pulls.push({
      account,
      repo: repoName ?? "",
      number,
      head: body.head,
      base: body.base,
      title: body.title,
    });
    return { status: 201, body: pullView(issue, html(number, "pull")) };
  }
  const issue = num ? repo.get(Number(num)) : undefined;
  if (!issue) return githubError(404);
  if (kind === "issues" && !sub && req.method === "GET")
    return {
      status: 200,
      body: {
        number: issue.number,
        title: issue.title,
        body: issue.body,
        state: issue.state,
        user: user(issue.author),
        html_url: html(issue.number, "issues"),
        comments: issue.comments.length,
        labels: [],
        ...(issue.pull ? { pull_request: { url: html(issue.number, "pull") } } : {}),
      },
    };
  if (kind === "issues" && sub === "comments" && req.method === "GET")
    return {
      status: 200,
      body: issue.comments.map((c) => ({
        id: c.id,
        body: c.body,
        user: user(c.author),
        html_url: `${html(issue.number, "issues")}#issuecomment-${c.id}`,
      })),
    };
  if (kind === "issues" && sub === "comments" && req.method === "POST") {
    const text = (req.json as { body?: string } | null)?.body;
    if (!text) return githubError(422);
    const id = state.nextId++;
    issue.comments.push({ id, body: text, author: account });
    state.comments.push({ account, repo: repoName ?? "", number: issue.number, body: text });
    return {
      status: 201,
      body: {
        id,
        body: text,
        user: user(account),
        html_url: `${html(issue.number, "issues")}#issuecomment-${id}`,
      },
    };
  }
  if (kind === "pulls" && !issue.pull) return githubError(404);
  if (kind === "pulls" && !sub && req.method === "GET")
    return { status: 200, body: pullView(issue, html(issue.number, "pull")) };
  if (kind === "pulls" && sub === "merge" && req.method === "PUT" && issue.pull) {
    const body = (req.json ?? {}) as { sha?: string; merge_method?: string };
    if (issue.pull.merged || !issue.pull.mergeable) return githubError(405);
    if (body.sha && body.sha !== issue.pull.sha) return githubError(409);
    issue.pull.merged = true;
    issue.state = "closed";
    state.merges.push({
      account,
      repo: repoName ?? "",
      number: issue.number,
      method: body.merge_method ?? "merge",
    });
    return {
      status: 200,
      body: { sha: "b".repeat(40), merged: true, message: "Pull Request successfully merged" },
    };
  }
  return githubError(404);
}

function pullView(issue: GitHubIssue, url: string) {
  const p = issue.pull;
  return {
    number: issue.number,
    title: issue.title,
    body: issue.body,
    state: issue.state,
    user: user(issue.author),
    html_url: url,
    draft: false,
    merged: p?.merged ?? false,
    mergeable: p?.mergeable ?? null,
    head: { ref: p?.head ?? "", sha: p?.sha ?? "" },
    base: { ref: p?.base ?? "" },
  };
}
