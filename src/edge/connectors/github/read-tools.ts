// github.issue.read and github.pr.read (READ): issue and pull request text is anyone's words: untrusted.
// A pull request's head commit is the result's `head_sha`: kept by redaction (a commit id under git's name for
// it) and shown to the model as a commit mark, so a merge can name exactly the commit that was read.
import { z } from "zod";
import { type ConveyorTool, failed } from "../../conveyor/tool.ts";
import { isOutcome, openSession, readOutcome, readTool } from "../connector-tool.ts";
import type { ConnectorDeps } from "../deps.ts";
import { Comment, githubUrl, Issue, IssueNumber, Pull, Repo } from "./api.ts";

const TIMEOUT_MS = 15_000;

const BODY_CHARS = 8_000;
const Args = z.strictObject({ repo: Repo, number: IssueNumber });
type Args = z.infer<typeof Args>;

const clipped = (s: string | null | undefined) => {
  const t = s ?? "";
  return t.length > BODY_CHARS ? `${t.slice(0, BODY_CHARS)}\n[…cut]` : t;
};

export function githubIssueRead(deps: ConnectorDeps): ConveyorTool<Args> {
  return {
    name: "github.issue.read",
    description: "Read a GitHub issue and its latest comments.",
    schema: Args,
    ...readTool("github"),
    summary: (a) => ({ what: `Read issue #${a.number}`, where: `GitHub ${a.repo}`, impact: "None: a read." }),
    grantScope: (a) => `${a.repo}:read`,
    timeoutMs: () => TIMEOUT_MS * 3,
    async execute(a, ctx) {
      const session = await openSession(deps, ctx, "github", []);
      if (isOutcome(session)) return session;
      const base = deps.endpoints().github;
      const got = await session.request({
        method: "GET",
        url: githubUrl(base, a.repo, `issues/${a.number}`),
        read: true,
        timeoutMs: TIMEOUT_MS,
      });
      if (!got.ok) return got.outcome;
      const issue = Issue.safeParse(got.json);
      if (!issue.success) return failed("command_error", "GitHub answered an issue Airlock cannot read");
      const listed = await session.request({
        method: "GET",
        url: githubUrl(base, a.repo, `issues/${a.number}/comments`, { per_page: "20" }),
        read: true,
        timeoutMs: TIMEOUT_MS,
      });
      if (!listed.ok) return listed.outcome;
      const comments = z.array(Comment).safeParse(listed.json);
      const shown = (comments.success ? comments.data : []).map((c) => ({
        id: c.id,
        author: c.user?.login ?? "",
        body: clipped(c.body),
      }));
      const i = issue.data;
      const text = [
        `${a.repo}#${i.number} [${i.state}] ${i.title} — by ${i.user?.login ?? "?"}`,
        "",
        clipped(i.body),
        ...shown.map((c) => `\n--- comment ${c.id} by ${c.author}\n${c.body}`),
      ].join("\n");
      return readOutcome(
        {
          account: session.account,
          repo: a.repo,
          number: i.number,
          title: i.title,
          state: i.state,
          author: i.user?.login ?? null,
          url: i.html_url ?? null,
          comments: shown,
          text,
        },
        `issue #${i.number}`,
      );
    },
  };
}

export function githubPrRead(deps: ConnectorDeps): ConveyorTool<Args> {
  return {
    name: "github.pr.read",
    description: "Read a GitHub pull request: title, body, branches, state, mergeability.",
    schema: Args,
    ...readTool("github"),
    summary: (a) => ({
      what: `Read pull request #${a.number}`,
      where: `GitHub ${a.repo}`,
      impact: "None: a read.",
    }),
    grantScope: (a) => `${a.repo}:read`,
    timeoutMs: () => TIMEOUT_MS * 3,
    async execute(a, ctx) {
      const session = await openSession(deps, ctx, "github", []);
      if (isOutcome(session)) return session;
      const got = await session.request({
        method: "GET",
        url: githubUrl(deps.endpoints().github, a.repo, `pulls/${a.number}`),
        read: true,
        timeoutMs: TIMEOUT_MS,
      });
      if (!got.ok) return got.outcome;
      const pr = Pull.safeParse(got.json);
      if (!pr.success) return failed("command_error", "GitHub answered a pull request Airlock cannot read");
      const p = pr.data;
      const text = [
        `${a.repo}#${p.number} [${p.merged ? "merged" : p.state}${p.draft ? ", draft" : ""}] ${p.title} — by ${p.user?.login ?? "?"}`,
        `${p.head.ref} → ${p.base.ref}; mergeable: ${p.mergeable ?? "unknown"}`,
        "",
        clipped(p.body),
      ].join("\n");
      return readOutcome(
        {
          account: session.account,
          repo: a.repo,
          number: p.number,
          title: p.title,
          state: p.state,
          merged: p.merged ?? false,
          head: p.head.ref,
          head_sha: p.head.sha,
          base: p.base.ref,
          mergeable: p.mergeable ?? null,
          url: p.html_url ?? null,
          text,
        },
        `pull request #${p.number}`,
      );
    },
  };
}
