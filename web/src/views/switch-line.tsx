// An on/off setting as one line: its name, then a switch (role="switch", named by that label) showing On or Off. The
// app lock and the emergency switches use it, so every switch on the phone is read out and toggled the same way.
interface Props {
  /** Prefix of the label's id, which names the switch for screen readers. */
  id: string;
  label: string;
  on: boolean;
  disabled: boolean;
  onToggle(): void;
}

export function SwitchLine({ id, label, on, disabled, onToggle }: Props) {
  return (
    <div class="switch-line">
      <span id={`${id}-label`} class="switch-label">
        {label}
      </span>
      <button
        type="button"
        role="switch"
        class={`switch${on ? " on" : ""}`}
        aria-checked={on}
        aria-labelledby={`${id}-label`}
        disabled={disabled}
        onClick={onToggle}
      >
        <span class="switch-state">{on ? "On" : "Off"}</span>
      </button>
    </div>
  );
}
