// Where the conveyor's network egress resolves names, and the test-only loopback allowance.
//
// Production reads only AIRLOCK_DOH_URL. Loopback targets can be allowed solely by calling
// allowLoopbackTargetsForTests() from code: the test entry module (test/edge/worker-entry.ts, used by
// vitest and by e2e's `wrangler dev`) does; src/edge/index.ts never does, and no binding, variable or
// secret is read for it, so no configuration of the production entry can turn it on.
import { isLoopback } from "./address.ts";

export const DEFAULT_DOH_URL = "https://cloudflare-dns.com/dns-query";

export interface EgressConfig {
  resolverUrl: string;
  /** `address|port` pairs on loopback that tests may reach; always empty in production. */
  loopbackTargets: ReadonlySet<string>;
}

let testLoopback: ReadonlySet<string> = new Set();

/** Test entries only. Refuses anything that is not a loopback address, so it can never open a private range. */
export function allowLoopbackTargetsForTests(targets: { address: string; port: number }[]): void {
  for (const t of targets) {
    if (!isLoopback(t.address)) throw new Error(`${t.address} is not a loopback address`);
  }
  testLoopback = new Set(targets.map((t) => loopbackKey(t.address, t.port)));
}

export function loopbackKey(address: string, port: number): string {
  return `${address}|${port}`;
}

export function egressConfig(env: { AIRLOCK_DOH_URL?: string }): EgressConfig {
  const configured = env.AIRLOCK_DOH_URL?.trim();
  return { resolverUrl: configured || DEFAULT_DOH_URL, loopbackTargets: testLoopback };
}
