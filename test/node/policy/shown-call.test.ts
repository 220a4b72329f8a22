// The card's text for a call: whole, redacted, with nothing that renders differently from what runs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_SHOWN_CALL_CHARS, shownCall, visibleText } from "../../../src/policy/shown-call.ts";

// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
const HIDDEN = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/;

describe("shownCall", () => {
  it("keeps a bash command whole, newlines and all", () => {
    expect(shownCall("Bash", { command: "a\n  b\tc" })).toEqual({ text: "a\n  b\tc", chars: 7 });
  });

  it("shows other tools' input as indented, redacted JSON", () => {
    const { text } = shownCall("mcp__x__y", { password: "hunter2hunter2", note: "hi" });
    expect(text).toContain('"note": "hi"');
    expect(text).not.toContain("hunter2hunter2");
  });

  it("lists every file of a patch", () => {
    const patch =
      "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: b.txt\n@@\n-y\n+z\n*** End Patch";
    const { text } = shownCall("apply_patch", { input: patch });
    expect(text).toContain("a.txt");
    expect(text).toContain("b.txt");
  });

  it("never lets a control, bidi or zero-width character through, and never exceeds the bound", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), fc.nat(30_000), (s, pad) => {
        const command = `${s}${"y".repeat(pad)}`;
        const shown = shownCall("bash", { command });
        expect(HIDDEN.test(shown.text)).toBe(false);
        expect(shown.text.length).toBeLessThanOrEqual(MAX_SHOWN_CALL_CHARS);
        expect(shown.chars).toBeGreaterThanOrEqual(shown.text.length);
      }),
      { numRuns: 300 },
    );
  });

  it("names a hidden character by its code point", () => {
    expect(visibleText("a\u200Bb\u0085c\u007f")).toBe("a⟦U+200B⟧b⟦U+0085⟧c␡");
  });
});
