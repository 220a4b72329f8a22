// `ls`: a guarded directory's entries, sorted, `/` after folders, denylisted names left out.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { servingRefusal } from "../../guards/index.ts";
import { ToolFailure, type ToolResult, textResult } from "./tool-result.ts";
import { formatSize, MAX_BYTES, truncateHead } from "./truncate.ts";

export interface LsArgs {
  limit?: number | undefined;
}

const DEFAULT_LIMIT = 500;

export async function lsTool(absolute: string, relative: string, args: LsArgs): Promise<ToolResult> {
  const info = await stat(absolute).catch(() => undefined);
  if (!info) throw new ToolFailure("Path not found");
  if (!info.isDirectory()) throw new ToolFailure("Not a directory");
  const limit = Math.max(1, Math.floor(args.limit ?? DEFAULT_LIMIT));
  const names = (await readdir(absolute)).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  const entries: string[] = [];
  let limitReached = false;
  for (const name of names) {
    // Secrets and never-served folders are left out of listings, not just refused on read.
    if (servingRefusal(relative === "." ? name : `${relative}/${name}`)) continue;
    if (entries.length >= limit) {
      limitReached = true;
      break;
    }
    const entry = await stat(join(absolute, name)).catch(() => undefined);
    if (!entry) continue;
    entries.push(entry.isDirectory() ? `${name}/` : name);
  }
  if (entries.length === 0) return textResult("(empty directory)");
  const truncation = truncateHead(entries.join("\n"), Number.MAX_SAFE_INTEGER);
  const notices: string[] = [];
  if (limitReached) notices.push(`${limit} entries limit reached. Use limit=${limit * 2} for more`);
  if (truncation.truncated) notices.push(`${formatSize(MAX_BYTES)} limit reached`);
  return textResult(
    notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content,
  );
}
