// Starting a job from the phone: what it should do (and an optional title); the server's problems are shown beside
// the field they name. A started job opens its detail, which follows it live.
import { useState } from "preact/hooks";
import { api } from "../api.ts";
import type { FieldErrors } from "../field-problems.ts";
import { navigate } from "../route.ts";
import { FormField, invalid } from "./form-field.tsx";
import { FormActions, useFormSubmit } from "./form-submit.tsx";
import { field, Rec } from "./records.tsx";

const FIELDS = ["title", "instructions"];

export function JobForm({ onCancel }: { onCancel(): void }) {
  const [title, setTitle] = useState("");
  const [instructions, setInstructions] = useState("");
  const { errors, setErrors, general, busy, submit } = useFormSubmit(FIELDS);

  const start = (event: Event) => {
    event.preventDefault();
    const own: FieldErrors = instructions.trim() ? {} : { instructions: "Say what the job should do." };
    return submit(own, async () => {
      const started = await api("/v1/jobs", Rec, {
        method: "POST",
        body: { instructions: instructions.trim(), ...(title.trim() ? { title: title.trim() } : {}) },
      });
      const job = (started.job as Rec | undefined) ?? started;
      navigate(`/jobs/${encodeURIComponent(field(job, "id"))}`);
    });
  };

  return (
    <form class="panel job-form" onSubmit={(e) => void start(e)} aria-label="New job" noValidate>
      <h2 class="panel-title">Start a job</h2>
      <FormField id="jf-title" label="Title (optional)" error={errors.title}>
        <input
          id="jf-title"
          value={title}
          onInput={(e) => setTitle(e.currentTarget.value)}
          maxLength={200}
          autoComplete="off"
          {...invalid("jf-title", errors.title)}
        />
      </FormField>
      <FormField id="jf-instructions" label="What the job does" error={errors.instructions}>
        <textarea
          id="jf-instructions"
          value={instructions}
          onInput={(e) => {
            setInstructions(e.currentTarget.value);
            setErrors({});
          }}
          rows={4}
          maxLength={8000}
          {...invalid("jf-instructions", errors.instructions)}
        />
      </FormField>
      <FormActions
        label="Start job"
        busyLabel="Starting…"
        busy={busy}
        general={general}
        onCancel={onCancel}
      />
    </form>
  );
}
