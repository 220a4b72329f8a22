// The agent's own description of a call ("Reinstall deps"): untrusted prose, shown in quotes, made visible like a
// command, and held to three lines until asked, so a 2,000-character description never pushes the command away.
import { useState } from "preact/hooks";
import { visibleText } from "../../../src/policy/shown-call.ts";

const LONG = 200;

export function AgentWords({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const shown = visibleText(text);
  const long = shown.length > LONG;
  return (
    <>
      <p class={`call-description${long && !open ? " clamped" : ""}`}>“{shown}”</p>
      {long ? (
        <button type="button" class="link-button inline" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? "Less of the description" : "All of the description"}
        </button>
      ) : null}
    </>
  );
}
