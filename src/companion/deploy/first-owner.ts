// The deployed edge's first run: create the owner with the bootstrap token deploy generated, which yields the
// recovery code (shown once) and the phone's approver code; the recovery code then mints this machine's companion
// code. The token waits in a local file (mode 0600) until this succeeds, so a failed run can finish it later.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { BootstrapResponse, PairingCode } from "../../protocol/pairing.ts";

const PendingFile = z.object({ worker: z.string(), admin_token: z.string().min(16) });

export function pendingPath(root: string): string {
  return join(root, ".wrangler", "airlock-deploy-bootstrap.json");
}

/** The bootstrap token of a deployment whose owner is not created yet, if this machine generated one. */
export function pendingToken(root: string, worker: string): string | undefined {
  const path = pendingPath(root);
  if (!existsSync(path)) return undefined;
  const parsed = PendingFile.safeParse(JSON.parse(readFileSync(path, "utf8")));
  return parsed.success && parsed.data.worker === worker ? parsed.data.admin_token : undefined;
}

export function savePending(root: string, worker: string, token: string): void {
  const path = pendingPath(root);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify({ worker, admin_token: token }), { mode: 0o600 });
  chmodSync(path, 0o600);
}

export function clearPending(root: string): void {
  rmSync(pendingPath(root), { force: true });
}

export type FirstOwner =
  | {
      created: true;
      recoveryCode: string;
      approver: { code: string; expires_at: string };
      companion: { code: string; expires_at: string };
    }
  | { created: false };

async function waitForHealth(base: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5_000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    // A fresh deployment takes a few seconds to answer on its hostname.
    await new Promise((r) => setTimeout(r, 1_000));
  }
  throw new Error(
    `the deployed edge at ${base} did not answer /healthz within ${timeoutMs / 1000} s (${last}); ` +
      "run the deploy again in a minute to finish (it creates the owner then), or pass --edge-url with the address that reaches it",
  );
}

/** Creates the owner, or reports that one exists (409: someone bootstrapped this deployment already). */
export async function createFirstOwner(
  base: string,
  adminToken: string,
  healthTimeoutMs = 90_000,
): Promise<FirstOwner> {
  await waitForHealth(base, healthTimeoutMs);
  const res = await fetch(`${base}/v1/bootstrap`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: "{}",
  });
  if (res.status === 409) return { created: false };
  if (!res.ok) throw new Error(`POST ${base}/v1/bootstrap answered HTTP ${res.status}: ${await res.text()}`);
  const owner = BootstrapResponse.parse(await res.json());
  const minted = await fetch(`${base}/v1/recovery/pairing-code`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ recovery_code: owner.recovery_code, role: "companion" }),
  });
  if (!minted.ok)
    throw new Error(`minting the companion code answered HTTP ${minted.status}: ${await minted.text()}`);
  const companion = PairingCode.parse(await minted.json());
  return {
    created: true,
    recoveryCode: owner.recovery_code,
    approver: { code: owner.code, expires_at: owner.expires_at },
    companion: { code: companion.code, expires_at: companion.expires_at },
  };
}
