// What the decision dock repeats of its card, so the buttons always say what they answer: who asks from where
// ("E2E Agent · build box · app"), and the first and last line of what would run, the end never cut away.
import { visibleText } from "../../src/policy/shown-call.ts";
import type { CapabilityPrompt } from "../../src/protocol/prompts.ts";
import { dangerReasons } from "./danger-marks.ts";

/** About one line of the dock at 390 px: two at most when a line wraps. */
export const DOCK_LINE_CHARS = 60;

export interface DockSummary {
  /** "agent · machine · folder", the parts that are known. */
  who: string;
  /** The first line, its start kept. */
  first: string;
  /** The last line, its end kept; null when the text is one short line. */
  last: string | null;
  /** Why any part of the whole text is marked dangerous. */
  reasons: string[];
}

function basename(path: string): string {
  const parts = path.split("/").filter(Boolean);
  return parts.at(-1) ?? path;
}

const startOf = (line: string) =>
  line.length <= DOCK_LINE_CHARS ? line : `${line.slice(0, DOCK_LINE_CHARS - 1)}…`;
const endOf = (line: string) =>
  line.length <= DOCK_LINE_CHARS ? line : `…${line.slice(-(DOCK_LINE_CHARS - 1))}`;

/** The first and last non-blank line of `text`; a single long line gives its start and its end. */
export function firstAndLast(text: string): { first: string; last: string | null } {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  const first = lines[0] ?? "";
  const lastLine = lines.at(-1) ?? "";
  if (lines.length <= 1)
    return first.length <= DOCK_LINE_CHARS
      ? { first, last: null }
      : { first: startOf(first), last: endOf(first) };
  return { first: startOf(first), last: endOf(lastLine) };
}

/**
 * Who asks, in words: the agent's name, or for a companion's proposal the companion's device name (the hub names
 * it by its raw device id, which nobody recognises).
 */
export function askerName(
  prompt: Pick<CapabilityPrompt, "agent" | "proposal">,
  machineOf: (deviceId: string) => string | null,
): string {
  const source = prompt.proposal?.source;
  if (source?.kind === "companion" && source.ref)
    return `Companion ${machineOf(source.ref) ?? "(a paired device)"}`;
  return visibleText(prompt.agent.name);
}

export function dockSummary(
  prompt: CapabilityPrompt,
  machineOf: (deviceId: string) => string | null,
): DockSummary {
  const calls = prompt.calls ?? [];
  const deviceId = calls.find((c) => c.deviceId)?.deviceId;
  const machine = deviceId ? machineOf(deviceId) : null;
  const folders = [...new Set(calls.map((c) => c.cwd).filter((c): c is string => Boolean(c)))];
  const folder =
    folders.length === 1
      ? basename(folders[0] ?? "")
      : folders.length > 1
        ? `${folders.length} folders`
        : null;
  const who = [
    askerName(prompt, machineOf),
    ...[machine, folder].filter(Boolean).map((s) => visibleText(s ?? "")),
  ].join(" · ");
  const texts = prompt.proposal
    ? [prompt.proposal.summary.what, prompt.proposal.args_text]
    : calls.length
      ? calls.map((c) => (c.text ? c.text : c.summary))
      : prompt.scopes.map((s) => s.summary);
  const text = visibleText(texts.join("\n"));
  const reasons = calls.length
    ? [...new Set(calls.flatMap((c) => dangerReasons(visibleText(c.text ? c.text : c.summary), c.cwd)))]
    : dangerReasons(text);
  return { who, ...firstAndLast(text), reasons };
}
