// The paired device's credentials on disk: `credentials.json`, mode 0600 in a 0700 directory; the token never leaves it.
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { credentialsPath, type Env, serverOverride } from "../cli/config.ts";

export const Credentials = z.object({
  server: z.string().url(),
  token: z.string().startsWith("alk_"),
  device_id: z.string().min(1),
  user_id: z.string().min(1),
  paired_at: z.string().optional(),
});
export type Credentials = z.infer<typeof Credentials>;

/** Why an `ask` cannot reach a person on an unpaired machine, in the words both decision paths use. */
export const NOT_PAIRED =
  'this machine is not paired (mint a code on your phone under Devices, then run "airlock pair <code>")';

export type CredentialsResult =
  | { ok: true; credentials: Credentials; path: string }
  | { ok: false; reason: string; path: string; missing: boolean };

/**
 * The edge a command that may run unpaired asks (with the recovery code): its `--server` URL, else
 * `AIRLOCK_SERVER`, else the paired server; without a trailing slash. Undefined when none is known.
 */
export function commandServer(
  flag: string | undefined,
  env: Env,
  creds: CredentialsResult,
): string | undefined {
  return (flag ?? serverOverride(env) ?? (creds.ok ? creds.credentials.server : undefined))?.replace(
    /\/+$/,
    "",
  );
}

/** Reads and validates the credentials; `AIRLOCK_SERVER` overrides the stored server. Never throws. */
export function loadCredentials(env: Env = process.env): CredentialsResult {
  const path = credentialsPath(env);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return {
      ok: false,
      path,
      missing: true,
      reason: `not paired: ${path} does not exist (run "airlock pair <code>")`,
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return {
      ok: false,
      path,
      missing: false,
      reason: `${path} is not valid JSON; pair again with "airlock pair <code>"`,
    };
  }
  const parsed = Credentials.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      path,
      missing: false,
      reason: `${path} is incomplete; pair again with "airlock pair <code>"`,
    };
  }
  const server = serverOverride(env) ?? parsed.data.server.replace(/\/+$/, "");
  return { ok: true, path, credentials: { ...parsed.data, server } };
}

/** Writes atomically (temp file + rename) with mode 0600 and the directory at 0700. */
export function saveCredentials(credentials: Credentials, env: Env = process.env): string {
  const path = credentialsPath(env);
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
  return path;
}

/** The file's permission bits, or null when it is missing; `doctor` warns when group/other can read it. */
export function credentialsMode(env: Env = process.env): number | null {
  try {
    return statSync(credentialsPath(env)).mode & 0o777;
  } catch {
    return null;
  }
}
