// Where the daemon's http hook endpoint listens and the secret a caller must present: one file per user,
// `$AIRLOCK_HOME/http-hook.json`, mode 0600. The installer creates it (a stable port, so the URL written into the
// agent's settings keeps working across daemon restarts); the daemon reads it and serves only if it exists.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname } from "node:path";
import { z } from "zod";
import { type Env, httpEndpointPath } from "../cli/config.ts";

export { httpEndpointPath };

/** The header carrying the secret: a custom header, so a browser page can never send it without a preflight. */
export const SECRET_HEADER = "x-airlock-hook-secret";

export const HttpEndpoint = z.strictObject({
  port: z.number().int().min(1024).max(65535),
  /** 32 random bytes, hex. */
  secret: z.string().regex(/^[0-9a-f]{64}$/),
});
export type HttpEndpoint = z.infer<typeof HttpEndpoint>;

export function hookUrl(endpoint: HttpEndpoint, agent: string): string {
  return `http://127.0.0.1:${endpoint.port}/hooks/${agent}`;
}

/**
 * The endpoint, or why there is none. A file another user could read is refused (its secret is no longer
 * the user's alone), so is one that does not parse.
 */
export function readHttpEndpoint(
  env: Env,
): { ok: true; endpoint: HttpEndpoint } | { ok: false; reason: string } {
  const path = httpEndpointPath(env);
  if (!existsSync(path)) return { ok: false, reason: `${path} does not exist` };
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0)
    return { ok: false, reason: `${path} is readable by others (mode ${mode.toString(8)}); it must be 0600` };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return { ok: false, reason: `${path} is not valid JSON` };
  }
  const parsed = HttpEndpoint.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: `${path} is not an http hook endpoint file` };
  return { ok: true, endpoint: parsed.data };
}

/** A port nothing listens on right now, picked by the kernel on 127.0.0.1. */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The existing endpoint, or a new one (free port, fresh secret) written 0600 in a 0700 directory; with
 * `write: false` (a dry run) the new one is only shown.
 */
export async function ensureHttpEndpoint(env: Env, write = true): Promise<HttpEndpoint> {
  const existing = readHttpEndpoint(env);
  if (existing.ok) return existing.endpoint;
  const path = httpEndpointPath(env);
  const endpoint: HttpEndpoint = { port: await freeLoopbackPort(), secret: randomBytes(32).toString("hex") };
  if (!write) return endpoint;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(endpoint)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
  return endpoint;
}
