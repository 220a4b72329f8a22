// `read`: a guarded file's text (line window, Pi's truncation notices) or an image attachment.
import { openInside, readOpened } from "../../guards/index.ts";
import { imageMimeOf } from "../image-kind.ts";
import { ToolFailure, type ToolResult, textResult } from "./tool-result.ts";
import { formatSize, MAX_BYTES, truncateHead } from "./truncate.ts";

export interface ReadArgs {
  path: string;
  offset?: number | undefined;
  limit?: number | undefined;
}

/** Larger files are refused rather than loaded whole into the companion's memory. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

async function readGuarded(workspace: string, absolute: string): Promise<Buffer> {
  // Open first, then check what was opened: a path swapped between the guard's check and the
  // open (a directory replaced by a symlink, a name replaced by a hard link) is caught on the descriptor.
  const opened = await openInside(workspace, absolute);
  if (!opened.ok) {
    if (opened.code === "ENOENT" || opened.code === "ENOTDIR") throw new ToolFailure("File not found");
    if (opened.code === "EISDIR") throw new ToolFailure("Path is a directory; use ls");
    if (opened.code !== undefined && opened.code !== "ELOOP")
      throw new ToolFailure(`Cannot open file (${opened.code})`);
    throw new ToolFailure(`Refused by Airlock: ${opened.reason}`);
  }
  const read = await readOpened(opened, MAX_FILE_BYTES);
  if ("bytes" in read) return read.bytes;
  if (read.refused === "too-large")
    throw new ToolFailure(`File is ${formatSize(Number(opened.stat.size))}, too large to read`);
  throw new ToolFailure(`Refused by Airlock: ${read.reason}`);
}

/** Reads `absolute` (resolved by the path guard inside `workspace`) as Pi's read tool does. */
export async function readTool(workspace: string, absolute: string, args: ReadArgs): Promise<ToolResult> {
  return readResult(await readGuarded(workspace, absolute), args);
}

/** The read result for a file's bytes: from disk, or from a re-validated precognition future. */
export function readResult(buffer: Buffer, args: ReadArgs): ToolResult {
  const mime = imageMimeOf(buffer);
  if (mime) {
    return {
      content: [
        { type: "text", text: `Read image file [${mime}]` },
        { type: "image", data: buffer.toString("base64"), mimeType: mime },
      ],
    };
  }
  const lines = buffer.toString("utf8").split("\n");
  const start = args.offset !== undefined ? Math.max(0, Math.floor(args.offset) - 1) : 0;
  if (start >= lines.length) {
    throw new ToolFailure(`Offset ${args.offset} is beyond end of file (${lines.length} lines total)`);
  }
  const end =
    args.limit !== undefined
      ? Math.min(start + Math.max(0, Math.floor(args.limit)), lines.length)
      : lines.length;
  const truncation = truncateHead(lines.slice(start, end).join("\n"));
  const first = start + 1;
  if (truncation.firstLineTooLong) {
    const size = formatSize(Buffer.byteLength(lines[start] ?? "", "utf8"));
    return textResult(
      `[Line ${first} is ${size}, exceeds ${formatSize(MAX_BYTES)} limit. Use bash: sed -n '${first}p' ${args.path} | head -c ${MAX_BYTES}]`,
    );
  }
  if (truncation.truncated) {
    const last = first + truncation.outputLines - 1;
    const why = truncation.truncatedBy === "bytes" ? ` (${formatSize(MAX_BYTES)} limit)` : "";
    return textResult(
      `${truncation.content}\n\n[Showing lines ${first}-${last} of ${lines.length}${why}. Use offset=${last + 1} to continue.]`,
    );
  }
  if (end < lines.length) {
    return textResult(
      `${truncation.content}\n\n[${lines.length - end} more lines in file. Use offset=${end + 1} to continue.]`,
    );
  }
  return textResult(truncation.content);
}
