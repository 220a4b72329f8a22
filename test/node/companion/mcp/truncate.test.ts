// The governed MCP tools' output limits: whole lines from the start (files, listings) or from the end (command
// output), cut at whichever of the line and byte limits comes first, and a report of what was cut.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { truncateHead, truncateTail } from "../../../../src/companion/adapters/mcp/truncate.ts";

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

describe("truncateHead", () => {
  it.each([
    ["fits", "a\nb\nc", 10, 100, { content: "a\nb\nc", truncatedBy: null, outputLines: 3 }],
    ["the line limit", "a\nb\nc\nd", 2, 100, { content: "a\nb", truncatedBy: "lines", outputLines: 2 }],
    ["the byte limit (the newline counts)", "aa\nbb\ncc", 10, 5, { content: "aa\nbb", truncatedBy: "bytes" }],
    ["a first line over the byte limit", "abcdef\nb", 10, 3, { content: "", firstLineTooLong: true }],
    ["multi-byte characters by bytes", "é\né\né", 10, 5, { content: "é\né", truncatedBy: "bytes" }],
  ])("%s", (_, text, maxLines, maxBytes, expected) => {
    const result = truncateHead(text, maxLines, maxBytes);
    expect(result).toMatchObject(expected);
    expect(result.truncated).toBe(result.truncatedBy !== null);
    expect(result.totalLines).toBe(text.split("\n").length);
    expect(result.outputBytes).toBe(bytes(result.content));
  });
});

describe("truncateTail", () => {
  it.each([
    ["fits", "a\nb\nc", 10, 100, { content: "a\nb\nc", truncatedBy: null, outputLines: 3 }],
    ["the line limit", "a\nb\nc\nd", 2, 100, { content: "c\nd", truncatedBy: "lines", outputLines: 2 }],
    ["the byte limit", "aa\nbb\ncc", 10, 5, { content: "bb\ncc", truncatedBy: "bytes" }],
    [
      "a last line over the byte limit shows its end",
      "a\nabcdef",
      10,
      3,
      { content: "def", truncatedBy: "bytes", outputLines: 1, firstLineTooLong: false },
    ],
  ])("%s", (_, text, maxLines, maxBytes, expected) => {
    const result = truncateTail(text, maxLines, maxBytes);
    expect(result).toMatchObject(expected);
    expect(result.truncated).toBe(result.truncatedBy !== null);
    expect(result.totalLines).toBe(text.split("\n").length);
    expect(result.outputBytes).toBe(bytes(result.content));
  });
});

describe("both ends", () => {
  const lines = fc.array(
    fc.string({ maxLength: 12 }).map((s) => s.replaceAll("\n", "")),
    { maxLength: 30 },
  );
  const limits = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 200 }));

  it("keep whole lines, in order, within both limits: a prefix from the head, a suffix from the tail", () => {
    fc.assert(
      fc.property(lines, limits, (list, [maxLines, maxBytes]) => {
        const text = list.join("\n");
        const all = text.split("\n");
        const head = truncateHead(text, maxLines, maxBytes);
        const tail = truncateTail(text, maxLines, maxBytes);
        for (const cut of [head, tail]) {
          expect(cut.outputLines).toBeLessThanOrEqual(maxLines);
          expect(cut.outputBytes).toBe(bytes(cut.content));
          expect(cut.truncated).toBe(cut.outputLines < all.length || cut.truncatedBy !== null);
        }
        expect(head.outputBytes).toBeLessThanOrEqual(maxBytes);
        const kept = head.content === "" && head.outputLines === 0 ? [] : head.content.split("\n");
        expect(kept).toEqual(all.slice(0, head.outputLines));
        if (!tail.truncated) expect(tail.content).toBe(text);
        else if (tail.outputLines > 0 && tail.outputBytes <= maxBytes && tail.content !== "")
          expect(text.endsWith(tail.content)).toBe(true);
      }),
    );
  });
});
