// A command or path that may be very long: its start and its end are always on screen (a payload after 2,000
// harmless characters sits at the end), the hidden middle is one tap away, and dangerous parts are marked. Every
// string goes through `visibleText` first, so bidi and control characters read the same here as in the hub's text.
import { useEffect, useRef, useState } from "preact/hooks";
import { visibleText } from "../../../src/policy/shown-call.ts";
import { dangerPieces, dangerReasons } from "../danger-marks.ts";

const HEAD_CHARS = 160;
const TAIL_CHARS = 160;
const SHORT_LINES = 6;

/** True when the card shows only the start and end of `text` until the person asks for all of it. */
export function isLongText(text: string): boolean {
  return text.length > HEAD_CHARS + TAIL_CHARS || text.split("\n").length > SHORT_LINES;
}

function lineCut(text: string, lines: number, chars: number): number {
  let at = 0;
  for (let i = 0; i < lines; i++) {
    const next = text.indexOf("\n", at);
    if (next === -1) return Math.min(text.length, chars);
    at = next + 1;
  }
  return Math.min(at - 1, chars);
}

/** The start and the end of a long text and how many characters lie between them. */
export function headAndTail(text: string): { head: string; tail: string; hidden: number } {
  const headEnd = lineCut(text, 3, HEAD_CHARS);
  const reversed = [...text].reverse().join("");
  const tailStart = Math.max(headEnd, text.length - lineCut(reversed, 3, TAIL_CHARS));
  return { head: text.slice(0, headEnd), tail: text.slice(tailStart), hidden: tailStart - headEnd };
}

/** Text with its dangerous parts in <mark>, each saying why. */
export function Marked({ text, cwd }: { text: string; cwd?: string | null | undefined }) {
  return (
    <>
      {dangerPieces(text, cwd).map((piece, i) =>
        piece.why ? (
          <mark key={i} class="danger" title={piece.why}>
            {piece.text}
          </mark>
        ) : (
          piece.text
        ),
      )}
    </>
  );
}

interface Props {
  text: string;
  /** The working directory, so a redirect outside it is marked. */
  cwd?: string | null | undefined;
  /** Mark dangerous parts (commands); paths and arguments pass false. */
  marks?: boolean;
  /** Called once the whole text has been on screen (short, or expanded by the person). */
  onSeen?: () => void;
}

export function CommandText({ text: raw, cwd, marks = true, onSeen }: Props) {
  const [open, setOpen] = useState(false);
  const text = visibleText(raw);
  const long = isLongText(text);
  const seen = !long || open;
  const seenRef = useRef(onSeen);
  seenRef.current = onSeen;
  useEffect(() => {
    if (seen) seenRef.current?.();
  }, [seen]);
  const show = (part: string) => (marks ? <Marked text={part} cwd={cwd} /> : part);
  const reasons = marks ? dangerReasons(text, cwd) : [];
  const warning = reasons.length ? (
    <span class="danger-note" role="note">
      ⚠ {reasons.join(" · ")}
    </span>
  ) : null;
  if (!long)
    return (
      <span class="command-wrap">
        <code class="command">{show(text)}</code>
        {warning}
      </span>
    );
  const { head, tail, hidden } = headAndTail(text);
  return (
    <span class="command-wrap">
      {open ? (
        // A scroll box: focusable, so a keyboard can scroll it too.
        <code class="command command-open" tabIndex={open ? 0 : -1}>
          {show(text)}
        </code>
      ) : (
        <code class="command command-ends">
          <span class="command-head">{show(head)}</span>
          <span class="command-gap">⋯ {hidden.toLocaleString("en")} more characters ⋯</span>
          <span class="command-tail">{show(tail)}</span>
        </code>
      )}
      {warning}
      <button type="button" class="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "Show less" : `Show all ${text.length.toLocaleString("en")} characters`}
      </button>
    </span>
  );
}
