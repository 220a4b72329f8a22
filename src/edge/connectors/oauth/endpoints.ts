// Where the providers' OAuth endpoints are: always the real hosts, except that a test entry may send every one of
// them to a contract server on loopback. Like the conveyor's egress allowance (src/edge/conveyor/egress/config.ts),
// only code can do that: test/edge/worker-entry.ts calls routeOAuthToLoopbackForTests; src/edge/index.ts never
// does, and no binding, variable or secret is read for it.
import { isLoopback } from "../../conveyor/egress/address.ts";

let loopbackBase: string | null = null;

/** Test entries only: every provider URL becomes `<base>/<real host><real path>`. Refuses anything but loopback http. */
export function routeOAuthToLoopbackForTests(base: string): void {
  const url = new URL(base);
  if (url.protocol !== "http:" || !isLoopback(url.hostname)) {
    throw new Error(`${base} is not an http URL on a loopback address`);
  }
  loopbackBase = url.href.replace(/\/$/, "");
}

/** The URL to call for a provider's real endpoint `real` (an https URL on the provider's host). */
export function providerUrl(real: string): URL {
  if (loopbackBase === null) return new URL(real);
  const url = new URL(real);
  return new URL(`${loopbackBase}/${url.host}${url.pathname}${url.search}`);
}

/** Whether requests go to a plain-http contract server (oauth4webapi refuses http unless told). */
export function insecureForTests(): boolean {
  return loopbackBase !== null;
}
