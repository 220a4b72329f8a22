// The second step of an action that cannot be taken back or that stops work (revoking, an emergency switch): the
// question in words, then the act (red) beside Cancel. One component, so each such step reads and works the same.
import type { ComponentChildren } from "preact";

interface Props {
  /** What is being confirmed, for screen readers ("Confirm revoking this app"). */
  legend: ComponentChildren;
  /** The question, with what follows from it ("Revoke this grant? The next matching call … asks again."). */
  children: ComponentChildren;
  /** The act's button ("Revoke app"). */
  act: string;
  onAct(): void;
  onCancel(): void;
  /** While the act runs: both buttons wait. */
  busy?: boolean;
}

export function ConfirmBox({ legend, children, act, onAct, onCancel, busy }: Props) {
  return (
    <fieldset class="confirm">
      <legend class="sr-only">{legend}</legend>
      <p class="confirm-question">{children}</p>
      <div class="decisions two">
        <button type="button" class="decision deny" disabled={busy} onClick={onAct}>
          {act}
        </button>
        <button type="button" class="decision neutral" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}
