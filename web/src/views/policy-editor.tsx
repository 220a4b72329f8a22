// The account policy (permissions.yaml format): read, edit, check, review the line diff, save. The server
// validates on check and on save; a refused policy changes nothing. Saving needs a passkey step-up when one exists.
import { diffLines } from "diff";
import { useEffect, useState } from "preact/hooks";
import { z } from "zod";
import { ApiError, api, errorMessage } from "../api.ts";
import { Show, useResource } from "./resource.tsx";

const PolicyAnswer = z.object({ policy: z.string().nullable(), updated_at: z.string().nullable() });
const Saved = z.object({ updated_at: z.string() });
const Checked = z.object({ ok: z.boolean(), errors: z.array(z.unknown()) });

/** The built-in policy when none is saved: everything that reaches the edge asks a person. */
export const DEFAULT_POLICY = "version: 1\ndefault_action: ask\nrules: []\n";

type Mode = { kind: "read" } | { kind: "edit" } | { kind: "review" };

const LoadError = z.object({ message: z.string(), line: z.number().optional(), rule: z.string().optional() });

/** "line 4: unknown action 'alow'" for each load error the server reports. */
function problems(details: unknown): string[] {
  if (!Array.isArray(details)) return [];
  return details.map((d) => {
    const e = LoadError.safeParse(d);
    if (!e.success) return typeof d === "string" ? d : JSON.stringify(d);
    return `${e.data.line ? `line ${e.data.line}: ` : ""}${e.data.rule ? `rule ${e.data.rule}: ` : ""}${e.data.message}`;
  });
}

export function PolicyEditor({ onDraft }: { onDraft(text: string | null): void }) {
  const [resource, reload] = useResource("/v1/settings/policy", PolicyAnswer);
  const [mode, setMode] = useState<Mode>({ kind: "read" });
  const [text, setText] = useState("");
  const [errors, setErrors] = useState<string[]>([]);
  const [note, setNote] = useState("");
  const saved = resource.state === "ready" ? (resource.data.policy ?? DEFAULT_POLICY) : DEFAULT_POLICY;
  useEffect(() => onDraft(mode.kind === "read" ? null : text), [mode.kind, text, onDraft]);

  const check = async (): Promise<boolean> => {
    setErrors([]);
    try {
      const answer = await api("/v1/policy/validate", Checked, { method: "POST", body: { policy: text } });
      setErrors(problems(answer.errors));
      return answer.ok;
    } catch (failure) {
      setErrors([errorMessage(failure)]);
      return false;
    }
  };
  const review = async () => {
    if (await check()) setMode({ kind: "review" });
  };
  const save = async () => {
    setNote("");
    try {
      await api("/v1/settings/policy", Saved, { method: "PUT", body: { policy: text } });
      setMode({ kind: "read" });
      setNote("Saved. Every companion picks it up on its next decision.");
      reload();
    } catch (failure) {
      setErrors(
        failure instanceof ApiError
          ? [failure.message, ...problems(failure.details)]
          : [errorMessage(failure)],
      );
      setMode({ kind: "edit" });
    }
  };

  return (
    <Show resource={resource} reload={reload} feature="The account policy">
      {(data) => (
        <div class="panel">
          <p class="muted small">
            {data.updated_at
              ? `Saved ${new Date(data.updated_at).toLocaleString()}.`
              : "No account policy saved: every call that reaches Airlock asks you."}
          </p>
          {mode.kind === "read" ? (
            <>
              <section aria-label="Effective account policy">
                <pre class="policy-text">{saved}</pre>
              </section>
              <button
                type="button"
                class="small-button"
                onClick={() => {
                  setText(saved);
                  setErrors([]);
                  setMode({ kind: "edit" });
                }}
              >
                Edit policy
              </button>
            </>
          ) : null}
          {mode.kind === "edit" ? (
            <>
              <label for="policy-text" class="small">
                Policy (YAML, same format as permissions.yaml)
              </label>
              <textarea
                id="policy-text"
                class="policy-input"
                spellcheck={false}
                rows={14}
                value={text}
                onInput={(e) => setText(e.currentTarget.value)}
              />
              <div class="decisions two">
                <button type="button" class="decision allow" onClick={() => void review()}>
                  Review changes
                </button>
                <button type="button" class="decision neutral" onClick={() => setMode({ kind: "read" })}>
                  Cancel
                </button>
              </div>
            </>
          ) : null}
          {mode.kind === "review" ? (
            <>
              <section aria-label="Changes">
                <pre class="diff">
                  {diffLines(saved, text).map((part, i) => (
                    <span key={i} class={part.added ? "diff-add" : part.removed ? "diff-del" : "diff-same"}>
                      {part.value
                        .replace(/\n$/, "")
                        .split("\n")
                        .map((line) => `${part.added ? "+ " : part.removed ? "- " : "  "}${line}`)
                        .join("\n")}
                      {"\n"}
                    </span>
                  ))}
                </pre>
              </section>
              <div class="decisions two">
                <button type="button" class="decision allow" onClick={() => void save()}>
                  Save policy
                </button>
                <button type="button" class="decision neutral" onClick={() => setMode({ kind: "edit" })}>
                  Back to editing
                </button>
              </div>
            </>
          ) : null}
          {errors.length ? (
            <ul class="card-status error" role="alert">
              {errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          ) : null}
          {note ? (
            <p class="card-status" role="status">
              {note}
            </p>
          ) : null}
        </div>
      )}
    </Show>
  );
}
