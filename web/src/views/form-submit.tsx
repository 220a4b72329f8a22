// Sending a phone form: the form's own problems first (nothing is sent while there are any), then the request, with
// the server's 400 problems beside the controls they name and the rest beside the buttons. The job and schedule
// forms submit the same way, so the rule of where a problem shows is written once.
import { useState } from "preact/hooks";
import { type FieldErrors, fieldErrorsOf } from "../field-problems.ts";

export function useFormSubmit(fields: readonly string[]) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [general, setGeneral] = useState("");
  const [busy, setBusy] = useState(false);
  /** Shows `own` (the form's check) and stops there if it names a problem; else runs `send` while busy. */
  const submit = async (own: FieldErrors, send: () => Promise<void>) => {
    setGeneral("");
    setErrors(own);
    if (Object.keys(own).length) return;
    setBusy(true);
    try {
      await send();
    } catch (failure) {
      const found = fieldErrorsOf(failure, fields);
      setErrors(found.fields);
      setGeneral(found.general);
    } finally {
      setBusy(false);
    }
  };
  return { errors, setErrors, general, busy, submit };
}

interface ActionsProps {
  /** The submit button's words, and its words while the request runs. */
  label: string;
  busyLabel: string;
  busy: boolean;
  /** What names no field of the form. */
  general: string;
  onCancel(): void;
}

/** Cancel beside the submit button, then the problem no field shows. */
export function FormActions({ label, busyLabel, busy, general, onCancel }: ActionsProps) {
  return (
    <>
      <div class="decisions two">
        <button type="button" class="decision neutral" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" class="decision allow" disabled={busy}>
          {busy ? busyLabel : label}
        </button>
      </div>
      {general ? (
        <p class="field-error" role="alert">
          {general}
        </p>
      ) : null}
    </>
  );
}
