// GitHub REST as the tools use it: repository paths, the Issue, Pull and comment shapes they read.
import { z } from "zod";

/** OAuth app scopes a write needs (a GitHub App token carries none: the provider decides then). */
export const GITHUB_WRITE_SCOPES = ["public_repo", "repo"];

export const Repo = z
  .string()
  .regex(/^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/, "owner/name")
  .refine((r) => !r.split("/").some((p) => p === "." || p === ".."), "owner/name");
export const IssueNumber = z.number().int().min(1).max(10_000_000);

export const githubUrl = (base: string, repo: string, path: string, query: Record<string, string> = {}) => {
  const url = new URL(`/repos/${repo}/${path}`, base);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url.toString();
};

const User = z.object({ login: z.string() }).nullable().optional();

export const Issue = z.object({
  number: z.number(),
  title: z.string(),
  body: z.string().nullable().optional(),
  state: z.string(),
  user: User,
  html_url: z.string().optional(),
  comments: z.number().optional(),
  labels: z.array(z.union([z.string(), z.object({ name: z.string().optional() })])).optional(),
  pull_request: z.unknown().optional(),
});

export const Comment = z.object({
  id: z.number(),
  body: z.string().nullable().optional(),
  user: User,
  html_url: z.string().optional(),
});

export const Pull = z.object({
  number: z.number(),
  title: z.string(),
  body: z.string().nullable().optional(),
  state: z.string(),
  user: User,
  html_url: z.string().optional(),
  draft: z.boolean().optional(),
  merged: z.boolean().optional(),
  mergeable: z.boolean().nullable().optional(),
  head: z.object({ ref: z.string(), sha: z.string() }),
  base: z.object({ ref: z.string() }),
  changed_files: z.number().optional(),
  additions: z.number().optional(),
  deletions: z.number().optional(),
});

export const MergeResult = z.object({
  sha: z.string().optional(),
  merged: z.boolean(),
  message: z.string().optional(),
});
