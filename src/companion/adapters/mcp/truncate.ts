// Output limits shared by the governed tools, the same as Pi's built-ins so models see familiar notices.

export const MAX_LINES = 2000;
export const MAX_BYTES = 50 * 1024;
export const MAX_LINE_CHARS = 500;

export interface Truncation {
  content: string;
  truncated: boolean;
  truncatedBy: "lines" | "bytes" | null;
  totalLines: number;
  outputLines: number;
  outputBytes: number;
  /** The first kept line alone is over the byte limit (head truncation keeps nothing then). */
  firstLineTooLong: boolean;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

/** Whole lines taken in `order` (indices into `lines`) until the next would pass either limit. */
function keepLines(lines: string[], order: Iterable<number>, maxLines: number, maxBytes: number) {
  const kept: string[] = [];
  let bytes = 0;
  for (const i of order) {
    if (kept.length >= maxLines) return { kept, truncatedBy: "lines" as const };
    const line = lines[i] ?? "";
    const size = Buffer.byteLength(line, "utf8") + (kept.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) return { kept, truncatedBy: "bytes" as const };
    kept.push(line);
    bytes += size;
  }
  return { kept, truncatedBy: null };
}

function truncation(
  kept: string[],
  totalLines: number,
  truncatedBy: Truncation["truncatedBy"],
  firstLineTooLong: boolean,
): Truncation {
  const content = kept.join("\n");
  return {
    content,
    truncated: truncatedBy !== null,
    truncatedBy,
    totalLines,
    outputLines: kept.length,
    outputBytes: Buffer.byteLength(content, "utf8"),
    firstLineTooLong,
  };
}

/** Keeps whole lines from the start until either limit is reached. */
export function truncateHead(text: string, maxLines = MAX_LINES, maxBytes = MAX_BYTES): Truncation {
  const lines = text.split("\n");
  const { kept, truncatedBy } = keepLines(lines, lines.keys(), maxLines, maxBytes);
  return truncation(kept, lines.length, truncatedBy, truncatedBy === "bytes" && kept.length === 0);
}

/** Keeps whole lines from the end (command output: the last lines say what happened). */
export function truncateTail(text: string, maxLines = MAX_LINES, maxBytes = MAX_BYTES): Truncation {
  const lines = text.split("\n");
  const fromEnd = Array.from(lines.keys()).reverse();
  const { kept, truncatedBy } = keepLines(lines, fromEnd, maxLines, maxBytes);
  kept.reverse();
  // A single huge last line still shows its end rather than nothing.
  if (truncatedBy === "bytes" && kept.length === 0)
    kept.push(
      Buffer.from(lines.at(-1) ?? "", "utf8")
        .subarray(-maxBytes)
        .toString("utf8"),
    );
  return truncation(kept, lines.length, truncatedBy, false);
}

export function truncateLine(line: string, maxChars = MAX_LINE_CHARS): { text: string; truncated: boolean } {
  if (line.length <= maxChars) return { text: line, truncated: false };
  return { text: `${line.slice(0, maxChars)}... [truncated]`, truncated: true };
}
