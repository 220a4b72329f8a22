// Creating or editing a schedule on the phone: a name, what the job does, when it runs (cron with its meaning in
// words, every N minutes, or once at a date and time) and the time zone those times are read in. Each problem, the
// form's own or the server's, is shown beside its control.
import { useMemo, useState } from "preact/hooks";
import { api } from "../api.ts";
import { cronInWords } from "../cron-words.ts";
import type { FieldErrors } from "../field-problems.ts";
import { FormField, invalid } from "./form-field.tsx";
import { FormActions, useFormSubmit } from "./form-submit.tsx";
import { field, Rec } from "./records.tsx";

type Kind = "cron" | "interval" | "at";
const FIELDS = ["name", "kind", "cron", "every_seconds", "at", "timezone", "task.instructions", "task.title"];

export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** Every IANA zone the browser knows, UTC first; the current value stays listed even if the browser lacks it. */
function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set(["UTC", current, ...known])];
}

/** Which field problem a draft key's control shows. */
const ERROR_OF: Partial<Record<string, string>> = {
  minutes: "every_seconds",
  instructions: "task.instructions",
};

interface Draft {
  name: string;
  instructions: string;
  kind: Kind;
  cron: string;
  minutes: string;
  at: string;
  timezone: string;
}

function draftOf(schedule: Rec | null): Draft {
  const task = (schedule?.task as Rec | undefined) ?? {};
  const kind = (field(schedule ?? {}, "kind") || "cron") as Kind;
  const every = Number(field(schedule ?? {}, "every_seconds"));
  return {
    name: field(schedule ?? {}, "name"),
    instructions: field(task, "instructions"),
    kind,
    cron: field(schedule ?? {}, "cron") || "0 9 * * 1-5",
    minutes: Number.isFinite(every) && every > 0 ? String(Math.round(every / 60)) : "60",
    at: field(schedule ?? {}, "at").slice(0, 16),
    timezone: field(schedule ?? {}, "timezone") || browserTimeZone(),
  };
}

/** The form's own checks, before anything is sent. */
function checkDraft(d: Draft): FieldErrors {
  const errors: FieldErrors = {};
  if (!d.name.trim()) errors.name = "Give the schedule a name.";
  if (!d.instructions.trim()) errors["task.instructions"] = "Say what the job should do.";
  if (d.kind === "cron") {
    const words = cronInWords(d.cron);
    if (!words.ok) errors.cron = words.error;
  }
  if (d.kind === "interval") {
    const minutes = Number(d.minutes);
    if (!Number.isInteger(minutes) || minutes < 1)
      errors.every_seconds = "Every how many minutes? 1 or more.";
  }
  if (d.kind === "at" && !d.at) errors.at = "Pick the date and time.";
  return errors;
}

function bodyOf(d: Draft): Rec {
  const timing =
    d.kind === "cron"
      ? { cron: d.cron.trim() }
      : d.kind === "interval"
        ? { every_seconds: Number(d.minutes) * 60 }
        : { at: d.at.length === 16 ? `${d.at}:00` : d.at };
  return {
    name: d.name.trim(),
    kind: d.kind,
    ...timing,
    timezone: d.timezone,
    task: { instructions: d.instructions.trim() },
  };
}

interface Props {
  /** The schedule being edited, or null for a new one. */
  schedule: Rec | null;
  onDone(message: string): void;
  onCancel(): void;
}

export function ScheduleForm({ schedule, onDone, onCancel }: Props) {
  const [draft, setDraft] = useState(() => draftOf(schedule));
  const { errors, setErrors, general, busy, submit } = useFormSubmit(FIELDS);
  const zones = useMemo(() => timeZones(draft.timezone), [draft.timezone]);
  const words = draft.kind === "cron" ? cronInWords(draft.cron) : null;
  const id = schedule ? field(schedule, "id") : "";
  const set = (key: keyof Draft) => (event: Event) => {
    const value = (event.currentTarget as HTMLInputElement).value;
    setDraft((d) => ({ ...d, [key]: value }));
    // A control's problem goes once the person changes it.
    const named = ERROR_OF[key] ?? key;
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== named)));
  };

  const save = (event: Event) => {
    event.preventDefault();
    return submit(checkDraft(draft), async () => {
      if (schedule) {
        await api(`/v1/schedules/${encodeURIComponent(id)}`, Rec, { method: "PATCH", body: bodyOf(draft) });
        onDone(`Saved ${draft.name.trim()}.`);
      } else {
        const created = await api("/v1/schedules", Rec, { method: "POST", body: bodyOf(draft) });
        const next = Date.parse(field(created, "next_run_at"));
        onDone(
          `Created ${draft.name.trim()}${Number.isFinite(next) ? `; first run ${new Date(next).toLocaleString()}` : ""}.`,
        );
      }
    });
  };

  const cronError = errors.cron ?? (words && !words.ok ? words.error : undefined);
  return (
    <form
      class="panel schedule-form"
      onSubmit={(e) => void save(e)}
      aria-label={schedule ? "Edit schedule" : "New schedule"}
      noValidate
    >
      <h2 class="panel-title">{schedule ? `Edit ${field(schedule, "name")}` : "New schedule"}</h2>
      <FormField id="sf-name" label="Name" error={errors.name}>
        <input
          id="sf-name"
          value={draft.name}
          onInput={set("name")}
          maxLength={100}
          autoComplete="off"
          {...invalid("sf-name", errors.name)}
        />
      </FormField>
      <FormField id="sf-task" label="What the job does" error={errors["task.instructions"]}>
        <textarea
          id="sf-task"
          value={draft.instructions}
          onInput={set("instructions")}
          rows={3}
          maxLength={8000}
          {...invalid("sf-task", errors["task.instructions"])}
        />
      </FormField>
      <FormField id="sf-kind" label="When" error={errors.kind}>
        <select id="sf-kind" value={draft.kind} onChange={set("kind")}>
          <option value="cron">On a cron schedule</option>
          <option value="interval">Every N minutes</option>
          <option value="at">Once, at a date and time</option>
        </select>
      </FormField>
      {draft.kind === "cron" ? (
        <FormField
          id="sf-cron"
          label="Cron (minute hour day month weekday)"
          error={cronError}
          hint={words?.ok && !errors.cron ? words.text : undefined}
        >
          <input
            id="sf-cron"
            value={draft.cron}
            onInput={set("cron")}
            autoComplete="off"
            spellcheck={false}
            class="mono"
            {...invalid("sf-cron", cronError)}
          />
        </FormField>
      ) : null}
      {draft.kind === "interval" ? (
        <FormField id="sf-every" label="Every how many minutes" error={errors.every_seconds}>
          <input
            id="sf-every"
            type="number"
            min={1}
            value={draft.minutes}
            onInput={set("minutes")}
            {...invalid("sf-every", errors.every_seconds)}
          />
        </FormField>
      ) : null}
      {draft.kind === "at" ? (
        <FormField id="sf-at" label="Date and time" error={errors.at}>
          <input
            id="sf-at"
            type="datetime-local"
            value={draft.at}
            onInput={set("at")}
            {...invalid("sf-at", errors.at)}
          />
        </FormField>
      ) : null}
      <FormField id="sf-zone" label="Time zone" error={errors.timezone}>
        <select
          id="sf-zone"
          value={draft.timezone}
          onChange={set("timezone")}
          {...invalid("sf-zone", errors.timezone)}
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll("_", " ")}
            </option>
          ))}
        </select>
      </FormField>
      <FormActions
        label={schedule ? "Save" : "Create schedule"}
        busyLabel="Saving…"
        busy={busy}
        general={general}
        onCancel={onCancel}
      />
    </form>
  );
}
