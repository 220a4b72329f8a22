// Test helpers: call the Worker through its real fetch handler, bootstrap an owner, pair devices.
import { env, exports } from "cloudflare:workers";

export const ORIGIN = "https://airlock.test";
export const ADMIN = `Bearer ${env.ADMIN_BOOTSTRAP_TOKEN}`;

export function api(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, { ...init, headers, body }));
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let recovery: string | undefined;

/** The owner's recovery code: bootstraps on first use, then (another test file) rotates it through the admin route. */
export async function recoveryCode(): Promise<string> {
  if (recovery) return recovery;
  let res = await api("/v1/bootstrap", { method: "POST", headers: { authorization: ADMIN } });
  if (res.status === 409)
    res = await api("/v1/admin/recovery-code", { method: "POST", headers: { authorization: ADMIN } });
  const body = (await res.json()) as { recovery_code: string };
  recovery = body.recovery_code;
  return recovery;
}

/** For a test that rotates the recovery code itself. */
export function rememberRecoveryCode(code: string): void {
  recovery = code;
}

/** A pairing code for the owner: companion codes from the admin route, approver codes with the recovery code. */
export async function ownerCode(role: "companion" | "approver" = "companion"): Promise<string> {
  const recovery_code = await recoveryCode();
  const res =
    role === "companion"
      ? await api("/v1/admin/pairing-code", { method: "POST", headers: { authorization: ADMIN } })
      : await api("/v1/recovery/pairing-code", { method: "POST", json: { recovery_code, role } });
  const body = (await res.json()) as { code: string };
  return body.code;
}

export interface Paired {
  deviceId: string;
  userId: string;
  token: string;
  setCookie: string | null;
}

export async function pair(
  kind: "companion" | "browser" = "companion",
  name = "test device",
): Promise<Paired> {
  const code = await ownerCode(kind === "browser" ? "approver" : "companion");
  const res = await api("/v1/pairing/bind", { method: "POST", json: { code, device_name: name, kind } });
  if (res.status !== 201) throw new Error(`bind failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { device_id: string; user_id: string; token: string };
  return {
    deviceId: body.device_id,
    userId: body.user_id,
    token: body.token,
    setCookie: res.headers.get("set-cookie"),
  };
}

export async function errorOf(res: Response): Promise<{ code: string; message: string; details?: unknown }> {
  const body = (await res.json()) as { error: { code: string; message: string; details?: unknown } };
  return body.error;
}
