// Parses and judges a URL before anything is resolved or dialled: scheme, credentials, host spelling, port.
import ipaddr from "ipaddr.js";

export interface Target {
  url: URL;
  /** Host as dialled: a DNS name, or the canonical IP (brackets stripped). */
  host: string;
  /** True when the URL names an IP literal, so no DNS answer is involved. */
  literal: boolean;
  port: number;
  tls: boolean;
}

export type TargetVerdict = { ok: true; target: Target } | { ok: false; reason: string };

/** Names that mean "this machine" or an internal network whatever DNS says. */
const INTERNAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home|corp|localdomain|home\.arpa)$/i;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;

export function parseTarget(raw: string): TargetVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a valid absolute URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, reason: `scheme ${url.protocol} is not allowed (http or https only)` };
  }
  if (url.username || url.password) return { ok: false, reason: "credentials in the URL are not allowed" };
  // The WHATWG parser has already turned decimal, octal, hex and short IPv4 spellings into a dotted quad
  // (http://2130706433/, http://0x7f.1/ → 127.0.0.1), so one canonical form is judged below.
  let host = url.hostname.toLowerCase();
  const bracketed = host.startsWith("[") && host.endsWith("]");
  if (bracketed) host = host.slice(1, -1);
  const literal = bracketed || ipaddr.IPv4.isValidFourPartDecimal(host);
  if (!literal) {
    const name = host.endsWith(".") ? host.slice(0, -1) : host;
    if (!name.includes("."))
      return { ok: false, reason: `single-label host ${JSON.stringify(host)} is not allowed` };
    if (INTERNAL_NAME.test(name)) return { ok: false, reason: `host ${name} names an internal network` };
    if (!name.split(".").every((label) => LABEL.test(label))) {
      return { ok: false, reason: `host ${JSON.stringify(host)} is not a DNS name` };
    }
    // A name that is all digits and dots (e.g. 1.2.3) would be an IP in some resolvers: refuse it.
    if (/^[0-9.]+$/.test(name)) return { ok: false, reason: `host ${name} looks like an IP address` };
    host = name;
  }
  const tls = url.protocol === "https:";
  const port = url.port ? Number(url.port) : tls ? 443 : 80;
  return { ok: true, target: { url, host, literal, port, tls } };
}
