// Commit ids reach the model whole only as marks the runtime writes into tool results from a stored result's
// commit-id field; the same text in a person's or a webhook's message is redacted like any 40-hex run, and a
// result's 40-hex run outside a commit-id field never survives storage redaction.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commitLines, modelContext } from "../../../src/edge/runtime/model-input.ts";
import type { MessageRow } from "../../../src/edge/runtime/threads.ts";
import { redactKeepingCommitMarks, redactValue } from "../../../src/policy/redact.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const KEY = "5f4dcc3b5aa765d61d8327deb882cf995f4dcc3b";

const row = (role: MessageRow["role"], content: string, seq: number): MessageRow => ({
  id: `m${seq}`,
  threadId: "t",
  userId: "u",
  seq,
  role,
  content,
  turnId: null,
  toolCalls: null,
  toolCallId: role === "tool" ? "c1" : null,
  toolName: role === "tool" ? "github.pr.read" : null,
  untrusted: role === "tool",
  clientMessageId: null,
  createdAt: seq,
});

describe("commit marks", () => {
  it("a stored result keeps its head_sha, drops a 40-hex run in its text; the marks line names only the sha", () => {
    const stored = redactValue({ text: `body with ${KEY}`, head_sha: SHA, note_sha: "short" }) as Record<
      string,
      unknown
    >;
    expect(stored.head_sha).toBe(SHA);
    expect(stored.text).not.toContain(KEY);
    expect(commitLines(stored)).toBe(`head_sha: [commit ${SHA}]`);
    expect(commitLines({ token: KEY, text: "x" })).toBe("");
  });

  it("tool rows keep marks; a person's message with the same mark is redacted", () => {
    const sent = modelContext(
      [row("user", `my key is [commit ${KEY}]`, 1), row("tool", `read\n\nhead_sha: [commit ${SHA}]`, 2)],
      [],
    );
    const text = JSON.stringify(sent);
    expect(text).toContain(`[commit ${SHA}]`);
    expect(text).not.toContain(KEY);
  });

  it("redactKeepingCommitMarks never unmasks anything but a well-formed mark", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, after) => {
        const out = redactKeepingCommitMarks(`${before} ${KEY} [commit ${SHA}] ${after}`);
        expect(out).toContain(`[commit ${SHA}]`);
        expect(out).not.toContain(KEY);
      }),
    );
  });
});
