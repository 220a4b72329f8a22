// Which push endpoints Airlock will POST to. A subscription's endpoint is a URL chosen by a browser (or by anyone
// holding an approver's cookie), so it is checked like any outbound target: https on a known push service only.
// AIRLOCK_PUSH_ALLOW_LOOPBACK=1 (local tests only) also allows http://127.0.0.1:<port>.

const PUSH_SERVICES = [
  /^fcm\.googleapis\.com$/,
  /^updates\.push\.services\.mozilla\.com$/,
  /^[a-z0-9-]+\.push\.apple\.com$/,
  /^web\.push\.apple\.com$/,
  /^[a-z0-9-]+\.notify\.windows\.com$/,
];

export type EndpointCheck = { ok: true; url: URL } | { ok: false; reason: string };

export function checkEndpoint(endpoint: string, allowLoopback: boolean): EndpointCheck {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { ok: false, reason: "not a URL" };
  }
  if (url.username || url.password) return { ok: false, reason: "credentials in the URL" };
  if (allowLoopback && url.protocol === "http:" && url.hostname === "127.0.0.1") return { ok: true, url };
  if (url.protocol !== "https:") return { ok: false, reason: "push endpoints are https" };
  if (url.port && url.port !== "443") return { ok: false, reason: "push endpoints use port 443" };
  if (!PUSH_SERVICES.some((re) => re.test(url.hostname))) {
    return { ok: false, reason: `${url.hostname} is not a known push service` };
  }
  return { ok: true, url };
}
