// Explain: what the account policy (saved, or the draft being edited) and the emergency switches would decide for
// a sample call, with the rule, layer, risk and redacted scope. Nothing is recorded or asked.
import { useState } from "preact/hooks";
import { z } from "zod";
import { api, errorMessage } from "../api.ts";
import { ErrorNote } from "./error-note.tsx";

const Explained = z.object({
  action: z.string(),
  rule: z.string().nullable(),
  layer: z.string(),
  risk: z.string(),
  capability: z.string(),
  scope: z.string(),
  message: z.string().nullable(),
});
type Explained = z.infer<typeof Explained>;

export function PolicyExplain({ draft }: { draft: string | null }) {
  const [tool, setTool] = useState("Bash");
  const [input, setInput] = useState("git status");
  const [answer, setAnswer] = useState<Explained | null>(null);
  const [error, setError] = useState("");
  const explain = async (event: Event) => {
    event.preventDefault();
    setError("");
    setAnswer(null);
    // A shell tool takes a command; any other tool takes its input as JSON, or a path.
    let parsed: Record<string, unknown>;
    try {
      const value: unknown = input.trim().startsWith("{") ? JSON.parse(input) : null;
      parsed =
        value && typeof value === "object"
          ? (value as Record<string, unknown>)
          : /bash|shell|exec/i.test(tool)
            ? { command: input }
            : { file_path: input };
    } catch {
      setError("The input is not valid JSON.");
      return;
    }
    try {
      setAnswer(
        await api("/v1/policy/explain", Explained, {
          method: "POST",
          body: { tool, input: parsed, ...(draft === null ? {} : { policy: draft }) },
        }),
      );
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <form class="panel explain" onSubmit={explain}>
      <label>
        Tool
        <input value={tool} onInput={(e) => setTool(e.currentTarget.value)} autoComplete="off" />
      </label>
      <label>
        Command, path or JSON input
        <input value={input} onInput={(e) => setInput(e.currentTarget.value)} autoComplete="off" />
      </label>
      <button type="submit" class="small-button">
        Explain{draft === null ? "" : " with the draft"}
      </button>
      {answer ? (
        <dl class="details" aria-label="Explanation">
          <dt>Decision</dt>
          <dd>
            <strong
              class={`outcome ${answer.action === "allow" ? "allowed" : answer.action === "ask" ? "" : "denied"}`}
            >
              {answer.action}
            </strong>
          </dd>
          <dt>Why</dt>
          <dd>
            {answer.rule ? `rule ${answer.rule}` : "no rule matched"} ({answer.layer} layer)
            {answer.message ? ` — ${answer.message}` : ""}
          </dd>
          <dt>Capability and risk</dt>
          <dd>
            {answer.capability}, {answer.risk}
          </dd>
          <dt>Scope</dt>
          <dd>
            <code>{answer.scope}</code>
          </dd>
        </dl>
      ) : null}
      <ErrorNote message={error} />
    </form>
  );
}
