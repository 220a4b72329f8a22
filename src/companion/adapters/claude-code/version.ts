// Which Claude Code the user runs, as far as the installer needs to know: `"type": "http"` hooks block on failure
// (`"onFailure": "block"`) only from 2.1.295 on; before that a dead endpoint would let every call run ungated.
import { execFileSync } from "node:child_process";
import semver from "semver";
import type { Env } from "../../cli/config.ts";

export const HTTP_HOOKS_SINCE = "2.1.295";

/** `claude --version` on the user's PATH ("2.1.330 (Claude Code)"), or undefined when it does not run. */
export function claudeCodeVersion(env: Env): string | undefined {
  try {
    const out = execFileSync("claude", ["--version"], {
      env,
      encoding: "utf8",
      timeout: 15_000,
      stdio: ["ignore", "pipe", "ignore"],
    });
    return semver.coerce(out)?.version;
  } catch {
    return undefined;
  }
}

/** Whether an http hook can be installed with `onFailure: "block"`, and why (for the installer's message). */
export function httpHooksSupported(version: string | undefined): { ok: boolean; why: string } {
  if (!version) return { ok: false, why: "claude --version did not run on this PATH" };
  if (semver.lt(version, HTTP_HOOKS_SINCE))
    return { ok: false, why: `Claude Code ${version} is older than ${HTTP_HOOKS_SINCE}` };
  return { ok: true, why: `Claude Code ${version}` };
}
