// This device: push notifications on or off, a passkey for step-up (once registered, risky actions need it), and
// the app lock (passkey on open) once a passkey signs here.
import { useEffect, useState } from "preact/hooks";
import { z } from "zod";
import { errorMessage } from "../api.ts";
import { registerPasskey } from "../passkeys.ts";
import { currentSubscription, disablePush, enablePush, pushSupported } from "../push-client.ts";
import { AppLockSetting } from "./app-lock-setting.tsx";
import { Show, useResource } from "./resource.tsx";

const PasskeyList = z.object({
  passkeys: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      rp_id: z.string().nullable().optional(),
      origin: z.string().nullable().optional(),
      signs_here: z.boolean().optional(),
      created_at: z.string(),
      last_used_at: z.string().nullable(),
    }),
  ),
});

export function ThisDevicePanel() {
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  // Which control is working, and each control's own note (an error shows next to what failed).
  const [busy, setBusy] = useState<"push" | "passkey" | null>(null);
  const [notes, setNotes] = useState<{ push?: string; passkey?: string }>({});
  const [passkeys, reloadPasskeys] = useResource("/v1/passkeys", PasskeyList);
  useEffect(() => {
    currentSubscription().then(
      (s) => setSubscribed(Boolean(s)),
      () => setSubscribed(false),
    );
  }, []);

  const run = async (which: "push" | "passkey", action: () => Promise<unknown>, done: string) => {
    setBusy(which);
    setNotes({});
    try {
      await action();
      setNotes({ [which]: done });
    } catch (failure) {
      setNotes({ [which]: errorMessage(failure) });
    } finally {
      setBusy(null);
    }
  };
  const note = (which: "push" | "passkey") =>
    notes[which] ? (
      <p class="card-status control-note" role="status">
        {notes[which]}
      </p>
    ) : null;

  return (
    <section class="panel" aria-labelledby="this-device-heading">
      <h2 id="this-device-heading" class="panel-title">
        This device
      </h2>
      <div class="switch-row">
        <p class="switch-label">Notifications</p>
        <p class="muted small">
          A notification for each new request, naming the agent, tool and scope (never secrets). Tap it to
          answer.
        </p>
        {pushSupported() ? (
          <button
            type="button"
            class="small-button"
            disabled={busy !== null || subscribed === null}
            aria-busy={busy === "push"}
            onClick={() =>
              void run(
                "push",
                async () => {
                  if (subscribed) await disablePush();
                  else await enablePush();
                  setSubscribed(!subscribed);
                },
                subscribed ? "Notifications are off." : "Notifications are on.",
              )
            }
          >
            {busy === "push" ? (
              <>
                <span class="spinner" aria-hidden="true" />
                {subscribed ? "Turning notifications off…" : "Turning notifications on…"}
              </>
            ) : subscribed ? (
              "Turn notifications off"
            ) : (
              "Turn notifications on"
            )}
          </button>
        ) : (
          <p class="muted small">
            This browser cannot receive push notifications (on iPhone: add Airlock to the Home Screen first).
          </p>
        )}
        {note("push")}
      </div>
      <div class="switch-row">
        <p class="switch-label">Passkey</p>
        <p class="muted small">
          With a passkey registered, high-risk approvals, policy edits, turning an emergency switch off and
          revoking a device each need a fresh fingerprint, face or PIN check. A passkey works on the address
          it was registered on; on another one, the recovery code stands in once, and you can add a passkey
          there.
        </p>
        <Show resource={passkeys} reload={reloadPasskeys} feature="Passkeys">
          {(data) => (
            <ul class="blocked">
              {data.passkeys.map((p) => (
                <li key={p.id}>
                  <span>{p.name}</span>
                  <span class="muted small">
                    {(p.origin ?? p.rp_id) ? `for ${p.origin ?? p.rp_id}` : "for an earlier address"}
                  </span>
                  <span class="muted small">
                    {p.last_used_at ? `used ${new Date(p.last_used_at).toLocaleString()}` : "not used yet"}
                  </span>
                </li>
              ))}
              {data.passkeys.length ? null : <li class="muted">None registered.</li>}
            </ul>
          )}
        </Show>
        <button
          type="button"
          class="small-button"
          disabled={busy !== null}
          aria-busy={busy === "passkey"}
          onClick={() =>
            void run(
              "passkey",
              async () => {
                await registerPasskey(navigator.userAgent.includes("Mobile") ? "Phone passkey" : "Passkey");
                reloadPasskeys();
              },
              "Passkey registered.",
            )
          }
        >
          {busy === "passkey" ? "Waiting for the passkey…" : "Register a passkey"}
        </button>
        {note("passkey")}
      </div>
      <AppLockSetting
        passkeyHere={passkeys.state === "ready" && passkeys.data.passkeys.some((p) => p.signs_here)}
      />
    </section>
  );
}
