// Which IP addresses the conveyor may connect to: global unicast only (public IPv4, and IPv6 inside
// 2000::/3 that embeds no IPv4). Everything else is refused. The ranges are written out here rather than
// taken from ipaddr.js's range names: it calls IPv4-compatible ::/96 ([::7f00:1]) plain "unicast".
import ipaddr from "ipaddr.js";

export type AddressVerdict = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string };

type Block = readonly [cidr: string, what: string];

/** IPv4 blocks that are not global unicast (IANA special-purpose registry, multicast, reserved). */
const NON_GLOBAL_V4: readonly Block[] = [
  ["0.0.0.0/8", "this-network"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "carrier-grade NAT"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "protocol-assignment"],
  ["192.0.2.0/24", "documentation"],
  ["192.88.99.0/24", "6to4 relay anycast"],
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"],
];

/**
 * IPv6 blocks that carry an IPv4 address: the packets may reach that IPv4, so it is judged and its
 * reason given when it is inside; even a public one is refused (dial the IPv4 itself). `at` is the
 * 16-bit part index where the embedded address starts; null where no single embedded address says where
 * packets go (Teredo carries a server and an obfuscated client; local-use NAT64 has no fixed position).
 */
const EMBEDDING_V6: readonly (readonly [cidr: string, what: string, at: number | null])[] = [
  ["::ffff:0:0/96", "IPv4-mapped", 6],
  ["::/96", "IPv4-compatible", 6],
  ["::ffff:0:0:0/96", "SIIT-translated", 6],
  ["64:ff9b::/96", "NAT64", 6],
  ["64:ff9b:1::/48", "local-use NAT64", null],
  ["2002::/16", "6to4", 1],
  ["2001::/32", "Teredo", null],
];

/** Blocks inside 2000::/3 that are still not global unicast destinations. */
const NON_GLOBAL_V6: readonly Block[] = [
  ["2001::/23", "protocol-assignment"],
  ["2001:db8::/32", "documentation"],
  ["3fff::/20", "documentation"],
];

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3") as [ipaddr.IPv6, number];

const compile = <T extends readonly [string, ...unknown[]]>(rows: readonly T[]) =>
  rows.map((row) => ({ range: ipaddr.parseCIDR(row[0]), row }));
const nonGlobalV4 = compile(NON_GLOBAL_V4);
const embeddingV6 = compile(EMBEDDING_V6);
const nonGlobalV6 = compile(NON_GLOBAL_V6);

function within(ip: ipaddr.IPv4 | ipaddr.IPv6, range: [ipaddr.IPv4 | ipaddr.IPv6, number]): boolean {
  return ip.kind() === range[0].kind() && ip.match(range);
}

function judgeV4(ip: ipaddr.IPv4): AddressVerdict {
  const hit = nonGlobalV4.find((b) => within(ip, b.range));
  if (hit) return { ok: false, reason: `${ip.toString()} is a ${hit.row[1]} address` };
  return { ok: true, address: ip.toString(), family: 4 };
}

function embeddedV4(v6: ipaddr.IPv6, at: number): ipaddr.IPv4 {
  const parts = v6.parts;
  const hi = parts[at] ?? 0;
  const lo = parts[at + 1] ?? 0;
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

function judgeV6(v6: ipaddr.IPv6, text: string): AddressVerdict {
  if (v6.zoneId) return { ok: false, reason: `${text} has a zone id` };
  // :: and ::1 sit inside ::/96 but are named for what they are, not as IPv4-compatible 0.0.0.x.
  const range = v6.range();
  if (range === "loopback" || range === "unspecified")
    return { ok: false, reason: `${text} is the ${range} address` };
  const embedding = embeddingV6.find((b) => within(v6, b.range));
  if (embedding) {
    const [, what, at] = embedding.row;
    if (at !== null) {
      const inner = judgeV4(embeddedV4(v6, at));
      if (!inner.ok) return { ok: false, reason: `${inner.reason} (inside the ${what} address ${text})` };
      return {
        ok: false,
        reason: `${text} embeds ${inner.address} (${what}); dial that IPv4 address directly`,
      };
    }
    return { ok: false, reason: `${text} embeds an IPv4 address (${what})` };
  }
  if (!v6.match(GLOBAL_UNICAST_V6)) {
    return {
      ok: false,
      reason: `${text} is not global unicast (${range === "unicast" ? "outside 2000::/3" : range})`,
    };
  }
  const special = nonGlobalV6.find((b) => within(v6, b.range));
  if (special) return { ok: false, reason: `${text} is a ${special.row[1]} address` };
  return { ok: true, address: v6.toNormalizedString(), family: 6 };
}

/** Judges one address as it will be dialled. Unparsable input is refused, never guessed at. */
export function judgeAddress(raw: string): AddressVerdict {
  const text = raw.startsWith("[") && raw.endsWith("]") ? raw.slice(1, -1) : raw;
  // Only canonical dotted quads and IPv6 text: ipaddr's lenient IPv4 forms (octal, hex, short) are for
  // URLs to normalise first; a DNS answer or pinned address in such a spelling is malformed.
  if (!ipaddr.IPv4.isValidFourPartDecimal(text) && !ipaddr.IPv6.isValid(text)) {
    return { ok: false, reason: `${JSON.stringify(raw)} is not an IP address` };
  }
  const ip = ipaddr.parse(text);
  return ip.kind() === "ipv4" ? judgeV4(ip as ipaddr.IPv4) : judgeV6(ip as ipaddr.IPv6, text);
}

export function isLoopback(raw: string): boolean {
  const text = raw.startsWith("[") && raw.endsWith("]") ? raw.slice(1, -1) : raw;
  if (!ipaddr.isValid(text)) return false;
  const ip = ipaddr.process(text);
  return ip.range() === "loopback";
}
