// github.issue.comment and github.pr.create (WRITE), github.pr.merge (HIGH: it changes the base branch
// everyone builds from; a person confirms every merge, no grant stands in).
import { z } from "zod";
import type { RiskClass } from "../../../policy/risk-class.ts";
import type { ProposalSummary } from "../../../protocol/conveyor.ts";
import { type ConveyorTool, failed, type ProposalContext, type ToolOutcome } from "../../conveyor/tool.ts";
import { isOutcome, OneLine, openSession, writeOutcome } from "../connector-tool.ts";
import { type ConnectorDeps, identityWords } from "../deps.ts";
import type { ApiAnswer } from "../exchange.ts";
import { Comment, GITHUB_WRITE_SCOPES, githubUrl, IssueNumber, MergeResult, Pull, Repo } from "./api.ts";

const TIMEOUT_MS = 20_000;
const Branch = z.string().regex(/^[A-Za-z0-9._/:-]{1,250}$/, "a branch name (owner:branch for a fork)");

const CommentArgs = z.strictObject({
  repo: Repo,
  number: IssueNumber,
  body: z.string().trim().min(1).max(65_536),
});
const CreateArgs = z.strictObject({
  repo: Repo,
  title: OneLine(256).min(1),
  head: Branch,
  base: Branch,
  body: z.string().max(65_536).default(""),
  draft: z.boolean().default(false),
});
const MergeArgs = z.strictObject({
  repo: Repo,
  number: IssueNumber,
  merge_method: z.enum(["merge", "squash", "rebase"]).default("merge"),
  /**
   * The head commit that was reviewed (github.pr.read shows it) and the card names: always sent, so GitHub refuses
   * the merge (409) if the branch moved since; a merge of whatever the head is by then is never asked for.
   */
  sha: z.string().regex(/^[0-9a-f]{40}$/, "the full 40-hex head commit sha (github.pr.read shows it)"),
});
type CommentArgs = z.infer<typeof CommentArgs>;
type CreateArgs = z.infer<typeof CreateArgs>;
type MergeArgs = z.infer<typeof MergeArgs>;

async function asWhom(deps: ConnectorDeps, ctx: ProposalContext, repo: string): Promise<string> {
  const access = await deps.tokens.access(ctx.userId, "github", ctx.identity).catch(() => null);
  const who =
    access && access.identity === ctx.identity ? `as ${access.account}` : "no GitHub connection yet";
  return `GitHub ${repo} (${identityWords(ctx.identity)}, ${who})`;
}

const withWhere = async (s: ProposalSummary, deps: ConnectorDeps, ctx: ProposalContext, repo: string) => ({
  ...s,
  where: await asWhom(deps, ctx, repo),
});

/** One write on the repository, as the run's account: never retried (a write is not safe to repeat). */
type Send = (method: "POST" | "PUT", path: string, json: unknown) => Promise<ApiAnswer>;

/**
 * What the three writes share: a fixed class, a card naming the account it acts as, no repeat on its own
 * (GitHub deduplicates none of them) and no grant standing in for HIGH; `run` says what is sent and what the
 * answer means.
 */
function githubWrite<A extends { repo: string }>(
  deps: ConnectorDeps,
  tool: Pick<ConveyorTool<A>, "name" | "description" | "schema" | "summary" | "grantScope"> & {
    riskClass: RiskClass;
    run(a: A, send: Send, account: string): Promise<ToolOutcome>;
  },
): ConveyorTool<A> {
  const { riskClass, run, ...declared } = tool;
  return {
    ...declared,
    riskClass: () => riskClass,
    connection: "github",
    external: true,
    idempotentDownstream: false,
    grantCoversHigh: false,
    contextual: async (a, ctx) => ({
      riskClass,
      summary: await withWhere(tool.summary(a), deps, ctx, a.repo),
    }),
    timeoutMs: () => TIMEOUT_MS * 2,
    async execute(a, ctx) {
      const session = await openSession(deps, ctx, "github", GITHUB_WRITE_SCOPES);
      if (isOutcome(session)) return session;
      const send: Send = (method, path, json) =>
        session.request({
          method,
          url: githubUrl(deps.endpoints().github, a.repo, path),
          json,
          read: false,
          timeoutMs: TIMEOUT_MS,
        });
      return run(a, send, session.account);
    },
  };
}

export function githubIssueComment(deps: ConnectorDeps): ConveyorTool<CommentArgs> {
  return githubWrite(deps, {
    name: "github.issue.comment",
    description: "Comment on an issue or pull request.",
    schema: CommentArgs,
    riskClass: "WRITE",
    summary: (a) => ({
      what: `Comment on #${a.number}`,
      where: `GitHub ${a.repo}`,
      impact: `Posts a public comment (${a.body.length} characters).`,
    }),
    grantScope: (a) => `${a.repo}:comment`,
    async run(a, send, account) {
      const made = await send("POST", `issues/${a.number}/comments`, { body: a.body });
      if (!made.ok) return made.outcome;
      const c = Comment.safeParse(made.json);
      return writeOutcome(
        {
          account,
          repo: a.repo,
          number: a.number,
          comment_id: c.success ? c.data.id : null,
          url: c.success ? (c.data.html_url ?? null) : null,
        },
        `commented on #${a.number}`,
      );
    },
  });
}

export function githubPrCreate(deps: ConnectorDeps): ConveyorTool<CreateArgs> {
  return githubWrite(deps, {
    name: "github.pr.create",
    description: "Open a pull request from a head branch into a base branch.",
    schema: CreateArgs,
    riskClass: "WRITE",
    summary: (a) => ({
      what: `Open pull request "${a.title}"`,
      where: `GitHub ${a.repo}`,
      impact: `Proposes merging ${a.head} into ${a.base}${a.draft ? " (as a draft)" : ""}.`,
    }),
    grantScope: (a) => `${a.repo}:pr:${a.base}`,
    async run(a, send, account) {
      const made = await send("POST", "pulls", {
        title: a.title,
        head: a.head,
        base: a.base,
        body: a.body,
        draft: a.draft,
      });
      if (!made.ok) return made.outcome;
      const p = Pull.safeParse(made.json);
      if (!p.success) return failed("command_error", "GitHub answered a pull request Airlock cannot read");
      return writeOutcome(
        {
          account,
          repo: a.repo,
          number: p.data.number,
          url: p.data.html_url ?? null,
          head: p.data.head.ref,
          base: p.data.base.ref,
        },
        `opened #${p.data.number}`,
      );
    },
  });
}

export function githubPrMerge(deps: ConnectorDeps): ConveyorTool<MergeArgs> {
  return githubWrite(deps, {
    name: "github.pr.merge",
    description:
      "Merge a pull request (merge, squash or rebase) only if its head is still the commit given as sha (from github.pr.read).",
    schema: MergeArgs,
    riskClass: "HIGH",
    summary: (a) => ({
      what: `Merge pull request #${a.number} (${a.merge_method})`,
      where: `GitHub ${a.repo}`,
      impact: `Changes the base branch of ${a.repo} with head commit ${a.sha.slice(0, 12)} exactly (GitHub refuses if it moved); not undone by Airlock.`,
    }),
    grantScope: (a) => `${a.repo}:merge`,
    async run(a, send, account) {
      const merged = await send("PUT", `pulls/${a.number}/merge`, {
        merge_method: a.merge_method,
        sha: a.sha,
      });
      if (!merged.ok) {
        if (merged.status === 405)
          return failed("command_error", `#${a.number} is not mergeable now (HTTP 405).`);
        if (merged.status === 409)
          return failed(
            "command_error",
            `#${a.number}'s head moved since the approval (HTTP 409): not merged.`,
          );
        return merged.outcome;
      }
      const m = MergeResult.safeParse(merged.json);
      return writeOutcome(
        {
          account,
          repo: a.repo,
          number: a.number,
          merged: m.success ? m.data.merged : true,
          sha: m.success ? (m.data.sha ?? null) : null,
        },
        `merged #${a.number}`,
      );
    },
  });
}
