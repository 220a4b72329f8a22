// Which IP addresses the conveyor may connect to: public unicast only. Every other range is refused.
import ipaddr from "ipaddr.js";

export type AddressVerdict = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string };

/**
 * IPv6 ranges that carry an IPv4 address inside them (mapped, NAT64, 6to4, Teredo, SIIT): the embedded
 * address is what the packets may reach, so it is judged instead, or the range is refused outright.
 */
const EMBEDDING_V6 = new Set(["ipv4Mapped", "rfc6145", "rfc6052", "6to4", "teredo"]);

function judgeV4(ip: ipaddr.IPv4): AddressVerdict {
  const range = ip.range();
  if (range !== "unicast") return { ok: false, reason: `${ip.toString()} is a ${range} address` };
  return { ok: true, address: ip.toString(), family: 4 };
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
  if (ip.kind() === "ipv4") return judgeV4(ip as ipaddr.IPv4);
  const v6 = ip as ipaddr.IPv6;
  if (v6.zoneId) return { ok: false, reason: `${text} has a zone id` };
  const range = v6.range();
  if (range === "ipv4Mapped") {
    const inner = judgeV4(v6.toIPv4Address());
    return inner.ok ? { ok: false, reason: `${text} is an IPv4-mapped address` } : inner;
  }
  if (EMBEDDING_V6.has(range)) return { ok: false, reason: `${text} is a ${range} address (embeds IPv4)` };
  if (range !== "unicast") return { ok: false, reason: `${text} is a ${range} address` };
  // Documentation prefix 2001:db8::/32 is unicast to ipaddr but never a real destination.
  if (v6.match(ipaddr.IPv6.parse("2001:db8::"), 32))
    return { ok: false, reason: `${text} is a documentation address` };
  return { ok: true, address: v6.toNormalizedString(), family: 6 };
}

export function isLoopback(raw: string): boolean {
  const text = raw.startsWith("[") && raw.endsWith("]") ? raw.slice(1, -1) : raw;
  if (!ipaddr.isValid(text)) return false;
  const ip = ipaddr.process(text);
  return ip.range() === "loopback";
}
