// A command or path that may be very long: three lines at most until the person asks for all of it, then a
// bounded scroll box, so a 2,000-character command never pushes the countdown and buttons off the screen.
import { useState } from "preact/hooks";

const LONG = 160;

export function CommandText({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const long = text.length > LONG || text.split("\n").length > 3;
  if (!long) return <code class="command">{text}</code>;
  return (
    <span class="command-wrap">
      <code class={`command ${open ? "command-open" : "command-clamped"}`} tabIndex={open ? 0 : -1}>
        {text}
      </code>
      <button type="button" class="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "Show less" : `Show all ${text.length.toLocaleString("en")} characters`}
      </button>
    </span>
  );
}
