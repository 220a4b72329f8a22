// `/permissions off` and `/permissions on` for one Pi session, as pi.hitl has them: the state is a custom
// entry in the session itself (pi.appendEntry), so it is cloned, forked, resumed and reloaded with the
// session, and restored on session_start from the newest entry on the session's branch. Off means the
// session's calls skip the local policy layers; the companion still audits them and emergency controls
// and the account policy still apply, and any layer may forbid it (`sessions.allow_ungated: false`).
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { z } from "zod";
import { formatLoadErrors, loadLocalPolicy } from "../../local-policy/load.ts";

/** The custom entry type; its data is `{ gated: boolean }`. */
export const PERMISSIONS_ENTRY = "airlock-permissions";
const STATUS_KEY = "airlock-permissions";
const PermissionsEntry = z.object({ gated: z.boolean() });

/** The state the newest permissions entry of a branch (root first) records; gated when there is none. */
export function gatedOnBranch(entries: readonly unknown[]): boolean {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i] as { type?: unknown; customType?: unknown; data?: unknown } | null;
    if (entry?.type !== "custom" || entry.customType !== PERMISSIONS_ENTRY) continue;
    const parsed = PermissionsEntry.safeParse(entry.data);
    if (parsed.success) return parsed.data.gated;
  }
  return true;
}

/** Why the session may not be ungated, or null when it may. */
function ungatedRefusal(cwd: string): string | null {
  const state = loadLocalPolicy(cwd);
  if (!state.ok) return `the policy does not load (${formatLoadErrors(state.errors)})`;
  if (state.policy.allowUngated) return null;
  return `${state.policy.ungatedForbiddenBy ?? "a policy file"} sets sessions.allow_ungated: false`;
}

function showState(ctx: ExtensionContext, gated: boolean): void {
  ctx.ui.setStatus(STATUS_KEY, gated ? undefined : "Airlock: permissions off (ungated)");
}

export interface PermissionsToggle {
  /** Whether this session's calls skip the local policy layers. */
  ungated(): boolean;
}

export function registerPermissionsToggle(pi: ExtensionAPI): PermissionsToggle {
  let gated = true;

  pi.on("session_start", (_event, ctx) => {
    // A new runtime (startup, /reload, /resume, /fork, /clone) reads the state from the session itself.
    try {
      gated = gatedOnBranch(ctx.sessionManager.getBranch());
    } catch {
      gated = true;
    }
    if (!gated) {
      const refusal = ungatedRefusal(ctx.cwd);
      if (refusal !== null)
        ctx.ui.notify(`Airlock: permissions stay on for this session: ${refusal}.`, "warning");
    }
    showState(ctx, gated);
  });

  pi.registerCommand("permissions", {
    description: "Airlock: turn policy checks for this session on or off (/permissions on|off|status)",
    getArgumentCompletions: (prefix) =>
      ["on", "off", "status"]
        .filter((v) => v.startsWith(prefix.trim()))
        .map((value) => ({ value, label: value })),
    handler: async (args, ctx) => {
      const word = args.trim().toLowerCase();
      if (word === "off") {
        const refusal = ungatedRefusal(ctx.cwd);
        if (refusal !== null) {
          ctx.ui.notify(`Airlock: permissions cannot be turned off: ${refusal}.`, "error");
          return;
        }
        gated = false;
        pi.appendEntry(PERMISSIONS_ENTRY, { gated });
        ctx.ui.notify(
          "Airlock: permissions off for this session. Calls skip your local policy; they are still audited, and the account policy and emergency controls still apply.",
          "warning",
        );
      } else if (word === "on") {
        gated = true;
        pi.appendEntry(PERMISSIONS_ENTRY, { gated });
        ctx.ui.notify("Airlock: permissions on for this session.", "info");
      } else if (word === "" || word === "status") {
        ctx.ui.notify(`Airlock: permissions are ${gated ? "on" : "off"} for this session.`, "info");
      } else {
        ctx.ui.notify("Usage: /permissions on | off | status", "error");
        return;
      }
      showState(ctx, gated);
    },
  });

  return { ungated: () => !gated };
}
