// `grep`: a regex or literal search over guarded files, walked in Node (no ripgrep needed), skipping
// symlinks, binaries, node_modules/, .git/ and every denylisted path; each file is opened through the one
// guard (openInside), so a hard link or a swapped-in symlink is never searched.
import { readdir, stat } from "node:fs/promises";
import { basename, join, matchesGlob } from "node:path";
import { openInside, readOpened, servingRefusal } from "../../guards/index.ts";
import { ToolFailure, type ToolResult, textResult } from "./tool-result.ts";
import { formatSize, MAX_BYTES, truncateHead, truncateLine } from "./truncate.ts";

export interface GrepArgs {
  pattern: string;
  glob?: string | undefined;
  ignoreCase?: boolean | undefined;
  literal?: boolean | undefined;
  context?: number | undefined;
  limit?: number | undefined;
}

const DEFAULT_LIMIT = 100;
const MAX_SEARCH_FILE_BYTES = 8 * 1024 * 1024;
const MAX_FILES = 50_000;

interface Match {
  file: string;
  line: number;
}

function compile(args: GrepArgs): RegExp {
  const source = args.literal ? args.pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : args.pattern;
  try {
    return new RegExp(source, args.ignoreCase ? "i" : "");
  } catch (error) {
    throw new ToolFailure(`Invalid pattern: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Workspace-relative paths of the searchable files under `relDir`, in a stable order. */
async function* walk(
  absDir: string,
  relDir: string,
  budget: { files: number },
): AsyncGenerator<[string, string]> {
  const entries = await readdir(absDir, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const rel = relDir === "." ? entry.name : `${relDir}/${entry.name}`;
    // Symlinks are not followed (ripgrep's default), so a link cannot lead the search outside.
    if (entry.isSymbolicLink() || servingRefusal(rel)) continue;
    const abs = join(absDir, entry.name);
    if (entry.isDirectory()) yield* walk(abs, rel, budget);
    else if (entry.isFile() && budget.files-- > 0) yield [abs, rel];
  }
}

/** A file's lines, or why the guard refused it (a hard link, a symlink out, a secret); undefined to skip. */
async function readText(
  workspace: string,
  absolute: string,
): Promise<string[] | { refused: string } | undefined> {
  const opened = await openInside(workspace, absolute);
  if (!opened.ok) return opened.code === undefined ? { refused: opened.reason } : undefined;
  const read = await readOpened(opened, MAX_SEARCH_FILE_BYTES);
  if (!("bytes" in read)) return read.refused === "secret" ? { refused: read.reason } : undefined;
  const buffer = read.bytes;
  if (buffer.subarray(0, 8192).includes(0)) return undefined;
  return buffer.toString("utf8").replace(/\r\n/g, "\n").replace(/\r/g, "\n").split("\n");
}

function globMatches(glob: string, rel: string): boolean {
  // Like ripgrep: a glob without a slash matches the file name at any depth.
  return glob.includes("/") ? matchesGlob(rel, glob) : matchesGlob(basename(rel), glob);
}

export async function grepTool(
  workspace: string,
  absolute: string,
  relative: string,
  args: GrepArgs,
): Promise<ToolResult> {
  const regex = compile(args);
  const info = await stat(absolute).catch(() => undefined);
  if (!info) throw new ToolFailure("Path not found");
  const limit = Math.max(1, Math.floor(args.limit ?? DEFAULT_LIMIT));
  const context = Math.max(0, Math.floor(args.context ?? 0));
  const isDir = info.isDirectory();
  const prefix = isDir && relative !== "." ? `${relative}/` : "";
  // Paths are shown relative to the searched folder, or as the file name for a single file (as Pi does).
  const shown = (rel: string) => (isDir ? rel.slice(prefix.length) : basename(rel));

  const files: AsyncIterable<[string, string]> | [string, string][] = isDir
    ? walk(absolute, relative, { files: MAX_FILES })
    : [[absolute, relative]];
  const out: string[] = [];
  let count = 0;
  let limitReached = false;
  let linesTruncated = false;
  for await (const [abs, rel] of files) {
    if (args.glob && !globMatches(args.glob, shown(rel))) continue;
    const lines = await readText(workspace, abs);
    // One file asked for by name says why it is refused; a refused file in a walk is skipped.
    if (lines !== undefined && !Array.isArray(lines) && !isDir)
      throw new ToolFailure(`Refused by Airlock: ${lines.refused}`);
    if (!Array.isArray(lines)) continue;
    const matches: Match[] = [];
    lines.forEach((text, i) => {
      if (i === lines.length - 1 && text === "") return;
      if (regex.test(text)) matches.push({ file: rel, line: i + 1 });
    });
    for (const match of matches) {
      if (count >= limit) {
        limitReached = true;
        break;
      }
      count++;
      const from = Math.max(1, match.line - context);
      const to = Math.min(lines.length, match.line + context);
      for (let n = from; n <= to; n++) {
        const { text, truncated } = truncateLine(lines[n - 1] ?? "");
        linesTruncated ||= truncated;
        out.push(n === match.line ? `${shown(rel)}:${n}: ${text}` : `${shown(rel)}-${n}- ${text}`);
      }
    }
    if (limitReached) break;
  }
  if (count === 0) return textResult("No matches found");
  const truncation = truncateHead(out.join("\n"), Number.MAX_SAFE_INTEGER);
  const notices: string[] = [];
  if (limitReached)
    notices.push(`${limit} matches limit reached. Use limit=${limit * 2} for more, or refine pattern`);
  if (truncation.truncated) notices.push(`${formatSize(MAX_BYTES)} limit reached`);
  if (linesTruncated) notices.push("Some lines truncated to 500 chars. Use read tool to see full lines");
  return textResult(
    notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content,
  );
}
