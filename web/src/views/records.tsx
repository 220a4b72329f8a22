// Shared pieces of the views over APIs that arrive with later server versions (proposals, jobs, schedules, chat,
// precognition): records are read loosely (known fields by name, the rest as a key/value list), because the
// dashboard must keep working while those APIs grow fields.
import { z } from "zod";
import { shortText } from "../labels.ts";
import { navigate, type Route } from "../route.ts";

export function BackLink({ to, label }: { to: Route; label: string }) {
  return (
    <a
      class="back"
      href={`/${to}`}
      onClick={(event) => {
        event.preventDefault();
        navigate(to);
      }}
    >
      ← {label}
    </a>
  );
}

export type Rec = Record<string, unknown>;
export const Rec = z.record(z.string(), z.unknown());

/** `{ <key>: [records…] }`, ignoring any other fields. */
export function listOf(key: string) {
  return z.object({ [key]: z.array(Rec) }).transform((value) => (value[key] ?? []) as Rec[]);
}

/** The first of `names` that is a string or number in `rec`, as text ("" if none). */
export function field(rec: Rec, ...names: string[]): string {
  for (const name of names) {
    const value = rec[name];
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      return String(value);
  }
  return "";
}

export function when(rec: Rec, ...names: string[]): string {
  const text = field(rec, ...names);
  const at = Date.parse(text);
  return Number.isFinite(at) ? new Date(at).toLocaleString() : text;
}

/** Every other field of a record as a definition list (values shortened; objects as JSON). */
export function RecordDetails({ rec, skip = [] }: { rec: Rec; skip?: string[] }) {
  const entries = Object.entries(rec).filter(([k]) => !skip.includes(k));
  return (
    <dl class="details">
      {entries.map(([key, value]) => (
        <>
          <dt key={`${key}-t`}>{key.replaceAll("_", " ")}</dt>
          <dd key={`${key}-d`}>
            {typeof value === "object" && value !== null ? (
              <pre class="json">{JSON.stringify(value, null, 2)}</pre>
            ) : (
              <code>{shortText(String(value), 400)}</code>
            )}
          </dd>
        </>
      ))}
    </dl>
  );
}

export function StateTag({ state }: { state: string }) {
  const tone = /fail|reject|expired|cancel|error|partial/i.test(state)
    ? "denied"
    : /execut|done|complete|succe|approved|active/i.test(state)
      ? "allowed"
      : "";
  return <span class={`outcome ${tone}`}>{state || "unknown"}</span>;
}
