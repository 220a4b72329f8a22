// One control of a phone form: its label, the control, a hint (e.g. the cron in words) and its problem right under
// it, tied to the control with aria-describedby, so an error is never far from what it is about.
import type { ComponentChildren } from "preact";

interface Props {
  /** The control's id (the label points at it; the problem is `<id>-error`). */
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  children: ComponentChildren;
}

export function FormField({ id, label, error, hint, children }: Props) {
  return (
    <div class="form-field">
      <label for={id}>{label}</label>
      {children}
      {hint ? (
        <p class="form-hint" data-hint-for={id}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p class="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The attributes that mark a control invalid and point at its problem. */
export function invalid(id: string, error: string | undefined) {
  return error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
}
