// Starting a job from the phone: what it should do (and an optional title); the server's problems are shown beside
// the field they name. A started job opens its detail, which follows it live.
import { useState } from "preact/hooks";
import { api } from "../api.ts";
import { type FieldErrors, fieldErrorsOf } from "../field-problems.ts";
import { navigate } from "../route.ts";
import { FormField, invalid } from "./form-field.tsx";
import { field, Rec } from "./records.tsx";

const FIELDS = ["title", "instructions"];

export function JobForm({ onCancel }: { onCancel(): void }) {
  const [title, setTitle] = useState("");
  const [instructions, setInstructions] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [general, setGeneral] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setGeneral("");
    if (!instructions.trim()) {
      setErrors({ instructions: "Say what the job should do." });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const started = await api("/v1/jobs", Rec, {
        method: "POST",
        body: { instructions: instructions.trim(), ...(title.trim() ? { title: title.trim() } : {}) },
      });
      const job = (started.job as Rec | undefined) ?? started;
      navigate(`/jobs/${encodeURIComponent(field(job, "id"))}`);
    } catch (failure) {
      const found = fieldErrorsOf(failure, FIELDS);
      setErrors(found.fields);
      setGeneral(found.general);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel job-form" onSubmit={(e) => void submit(e)} aria-label="New job" noValidate>
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
      <div class="decisions two">
        <button type="button" class="decision neutral" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" class="decision allow" disabled={busy}>
          {busy ? "Starting…" : "Start job"}
        </button>
      </div>
      {general ? (
        <p class="field-error" role="alert">
          {general}
        </p>
      ) : null}
    </form>
  );
}
