// The daemon's compiled policies, one per project directory, reloaded when a layer file changes; a bad edit
// keeps the last good policy (and says so) instead of failing every call.
import { statSync } from "node:fs";
import type { Env } from "../cli/config.ts";
import { formatLoadErrors, loadLocalPolicy, type PolicyState, policyFiles } from "./load.ts";

interface Slot {
  signature: string;
  /** What the decision core uses: the last state that loaded, or the failing one if none ever did. */
  effective: PolicyState;
  /** The latest attempt, which may have failed. */
  latest: PolicyState;
  checkedAt: number;
}

/** Re-stat at most this often per directory; a change shows up within this window. */
const RECHECK_MS = 250;

function signatureOf(cwd: string, env: Env): string {
  return policyFiles(cwd, env)
    .map((f) => {
      try {
        const s = statSync(f.path);
        return `${f.path}:${s.mtimeMs}:${s.size}:${s.ino}`;
      } catch {
        return `${f.path}:-`;
      }
    })
    .join("|");
}

export class PolicyStore {
  readonly #env: Env;
  readonly #slots = new Map<string, Slot>();
  readonly #log: (line: string) => void;

  constructor(env: Env, log: (line: string) => void) {
    this.#env = env;
    this.#log = log;
  }

  get(cwd: string): PolicyState {
    const now = Date.now();
    const slot = this.#slots.get(cwd);
    if (slot && now - slot.checkedAt < RECHECK_MS) return slot.effective;
    const signature = signatureOf(cwd, this.#env);
    if (slot && slot.signature === signature) {
      slot.checkedAt = now;
      return slot.effective;
    }
    const latest = loadLocalPolicy(cwd, this.#env);
    let effective = latest;
    if (!latest.ok && slot?.effective.ok) {
      effective = slot.effective;
      this.#log(
        `policy for ${cwd} failed to reload; keeping the last good policy: ${formatLoadErrors(latest.errors)}`,
      );
    } else if (!latest.ok) {
      this.#log(
        `policy for ${cwd} does not load; calls there are denied: ${formatLoadErrors(latest.errors)}`,
      );
    } else if (slot) {
      this.#log(`policy for ${cwd} reloaded`);
    }
    this.#slots.set(cwd, { signature, effective, latest, checkedAt: now });
    return effective;
  }

  /** Re-checks every known directory, so a bad edit is reported even before the next call. */
  refresh(): void {
    for (const [cwd, slot] of this.#slots) {
      slot.checkedAt = 0;
      this.get(cwd);
    }
  }

  view(): {
    cwd: string;
    ok: boolean;
    loadedAt: string;
    files: PolicyState["files"];
    error: string | null;
    stale: boolean;
  }[] {
    return [...this.#slots.entries()].map(([cwd, slot]) => ({
      cwd,
      ok: slot.effective.ok,
      loadedAt: slot.effective.loadedAt,
      files: slot.latest.files,
      error: slot.latest.ok ? null : formatLoadErrors(slot.latest.errors),
      stale: !slot.latest.ok && slot.effective.ok,
    }));
  }
}
