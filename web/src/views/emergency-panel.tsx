// Emergency switches: read-only mode, disable high-impact tools, blocked tools. Turning a switch on takes a
// confirm step (it stops work on every companion at once); turning it off is immediate.
import { useEffect, useState } from "preact/hooks";
import { EmergencyControls } from "../../../src/protocol/capability.ts";
import { api, errorMessage } from "../api.ts";
import { ConfirmBox } from "./confirm-box.tsx";
import { ErrorNote } from "./error-note.tsx";
import { SwitchLine } from "./switch-line.tsx";

interface SwitchProps {
  id: string;
  label: string;
  effect: string;
  on: boolean;
  change(next: boolean): Promise<void>;
}

function EmergencySwitch({ id, label, effect, on, change }: SwitchProps) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const apply = async (next: boolean) => {
    setBusy(true);
    setError("");
    try {
      await change(next);
      setConfirming(false);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="switch-row">
      <SwitchLine
        id={id}
        label={label}
        on={on}
        disabled={busy || confirming}
        onToggle={() => (on ? void apply(false) : setConfirming(true))}
      />
      <p class="muted small">{effect}</p>
      {confirming ? (
        <ConfirmBox
          legend={`Confirm: ${label}`}
          act="Turn on"
          busy={busy}
          onAct={() => void apply(true)}
          onCancel={() => setConfirming(false)}
        >
          Turn on {label.toLowerCase()}? It applies to every companion at once.
        </ConfirmBox>
      ) : null}
      <ErrorNote message={error} />
    </div>
  );
}

interface PanelProps {
  controls: EmergencyControls | null;
  setControls(controls: EmergencyControls): void;
}

export function EmergencyPanel({ controls, setControls }: PanelProps) {
  const [tool, setTool] = useState("");
  const [error, setError] = useState("");
  useEffect(() => {
    api("/v1/settings/emergency", EmergencyControls)
      .then(setControls)
      .catch((failure: unknown) => setError(errorMessage(failure)));
  }, [setControls]);

  const update = async (change: Partial<EmergencyControls>) => {
    setControls(await api("/v1/settings/emergency", EmergencyControls, { method: "POST", body: change }));
  };
  if (!controls) return <p class="muted">{error || "Loading emergency switches…"}</p>;

  const addTool = async (event: Event) => {
    event.preventDefault();
    const name = tool.trim();
    if (!name || controls.blockedTools.includes(name)) return;
    try {
      await update({ blockedTools: [...controls.blockedTools, name] });
      setTool("");
      setError("");
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  const removeTool = (name: string) =>
    update({ blockedTools: controls.blockedTools.filter((t) => t !== name) }).catch((failure: unknown) =>
      setError(errorMessage(failure)),
    );

  return (
    <div class="panel">
      <EmergencySwitch
        id="read-only"
        label="Read-only mode"
        effect="Every write, command and network call is denied, whatever the rules or grants say."
        on={controls.readOnly}
        change={(next) => update({ readOnly: next })}
      />
      <EmergencySwitch
        id="high-impact"
        label="Disable high-impact tools"
        effect="Every high-risk call is denied without asking."
        on={controls.disableHighImpact}
        change={(next) => update({ disableHighImpact: next })}
      />
      <div class="switch-row">
        <span class="switch-label" id="blocked-label">
          Blocked tools
        </span>
        <ul class="blocked" aria-labelledby="blocked-label">
          {controls.blockedTools.map((name) => (
            <li key={name}>
              <code>{name}</code>
              <button type="button" class="small-button" onClick={() => void removeTool(name)}>
                Remove <span class="sr-only">{name}</span>
              </button>
            </li>
          ))}
          {controls.blockedTools.length ? null : <li class="muted">None.</li>}
        </ul>
        <form class="inline-form" onSubmit={addTool}>
          <label class="sr-only" for="block-tool">
            Tool name to block
          </label>
          <input
            id="block-tool"
            value={tool}
            placeholder="tool name, e.g. deploy"
            autoComplete="off"
            maxLength={200}
            onInput={(e) => setTool(e.currentTarget.value)}
          />
          <button type="submit" class="small-button">
            Block
          </button>
        </form>
      </div>
      <ErrorNote message={error} />
    </div>
  );
}
