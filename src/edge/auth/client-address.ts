// Which client a request comes from, for pairing lockouts: the address Cloudflare vouches for, or one shared key.
//
// A deployed Worker is reached only through Cloudflare's edge, which sets CF-Connecting-IP itself and
// replaces any value a client sent. `wrangler dev` does not: it passes a client's own CF-Connecting-IP
// through (and adds one only when it is missing), so there the header is whatever the caller wants.
// The deployment says which case it is: AIRLOCK_TRUST_CF_CONNECTING_IP is "true" in wrangler.toml (the
// deployed Worker) and `npm run dev` sets it to "false". Untrusted, every caller is one client, so
// forging the header buys nothing.

/** IPv6 clients own at least a /64, so one client is one /64 (rotating the low bits is free). */
function clientKey(address: string): string {
  const ip = address.trim().toLowerCase();
  if (!ip.includes(":")) return ip;
  const [head = "", tail = ""] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::")
    ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

export const UNTRUSTED_CLIENT = "untrusted";

export function clientAddress(env: Pick<Env, "AIRLOCK_TRUST_CF_CONNECTING_IP">, headers: Headers): string {
  if (String(env.AIRLOCK_TRUST_CF_CONNECTING_IP ?? "") !== "true") return UNTRUSTED_CLIENT;
  const address = headers.get("cf-connecting-ip");
  return address ? clientKey(address) : UNTRUSTED_CLIENT;
}
