#!/usr/bin/env node
// Release gate "production smoke + audit parity" between two deployments of the dashboard (e.g. *.pages.dev and
// the custom domain): compares build id, every asset's hash, every HTML route and deep link (page and security
// headers, CSP included), the service worker, API
// reachability and version, session cookie attributes and the audit feed seen through both (read-only).
// Prints a table of differences; exits 1 on any drift, 2 on bad usage.
//
//   npm run parity -- https://airlock-dashboard.pages.dev https://airlock.example.com [--token alk_…] [--json]
//
// --token (or AIRLOCK_PARITY_TOKEN): a read-only parity token (`airlock devices token`; an approver device's token
// works too). With it the check also compares the session cookie's attributes through each URL (GET /v1/parity/cookie
// sets a probe cookie with them) and the audit feed read through both. It reads only: nothing is paired, recorded or
// revoked. Without it those rows say "skipped".
import { createHash } from "node:crypto";

const SECURITY_HEADERS = [
  "content-security-policy",
  "strict-transport-security",
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "permissions-policy",
];
/**
 * Every HTML route a phone opens, deep links included (a pairing URL, a notification's `?prompt=`, a detail
 * screen): each must serve the same page with the same security headers through both URLs, since a weaker CSP
 * or an injected script on /pair or /activity is as bad as one on /. Kept equal to web/src/route.ts's views by
 * test/node/web/parity-routes.test.ts.
 */
export const HTML_ROUTES = [
  "/activity",
  "/grants",
  "/devices",
  "/policy",
  "/proposals",
  "/proposals/prp_parity",
  "/jobs",
  "/jobs/job_parity",
  "/schedules",
  "/chat",
  "/precog",
  "/connections",
  "/notifications",
  "/more",
  "/apps",
  "/oauth/authorize",
  "/oauth/authorize?response_type=code&client_id=parity",
  "/pair",
  "/pair?code=12345678",
  "/?prompt=prm_parity",
  "/settings",
];

/** GET /v1/parity/cookie sets this cookie with the session cookie's attributes. */
const PROBE_COOKIE = "airlock_parity_probe";

function usage(message) {
  if (message) console.error(message);
  console.error("Usage: npm run parity -- <url-a> <url-b> [--token <parity token>] [--json]");
  process.exit(2);
}

function parseArgs(argv) {
  const urls = [];
  let token = process.env.AIRLOCK_PARITY_TOKEN ?? "";
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--json") json = true;
    else if (arg === "--token") token = argv[++i] ?? "";
    else if (arg.startsWith("--token=")) token = arg.slice(8);
    else if (arg.startsWith("--")) usage(`Unknown option ${arg}.`);
    else urls.push(arg);
  }
  if (urls.length !== 2) usage("Give exactly two URLs.");
  const bases = urls.map((u) => {
    try {
      const url = new URL(u);
      return url.origin;
    } catch {
      return usage(`Not a URL: ${u}`);
    }
  });
  return { bases, token, json };
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

const TIMEOUT_MS = 15_000;

async function get(base, path, init = {}) {
  try {
    const res = await fetch(`${base}${path}`, {
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
      ...init,
    });
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, body };
  } catch (error) {
    return { status: 0, headers: new Headers(), body: Buffer.alloc(0), error: String(error?.cause ?? error) };
  }
}

const json = (res) => {
  try {
    return JSON.parse(res.body.toString("utf8"));
  } catch {
    return null;
  }
};

/** The attributes of a Set-Cookie line that matter for parity (value excluded). */
export function cookieAttributes(setCookie) {
  if (!setCookie) return "(none)";
  const [first, ...attrs] = setCookie.split(";").map((p) => p.trim());
  const name = first.split("=")[0];
  const normalized = attrs
    .map((a) => {
      const [k, v] = a.split("=");
      const key = k.toLowerCase();
      return v === undefined
        ? key
        : `${key}=${key === "max-age" || key === "expires" ? "…" : v.toLowerCase()}`;
    })
    .sort();
  return [name, ...normalized].join("; ");
}

/** The newest audit events as one URL shows them: ids and kinds, hashed (what both URLs must agree on). */
async function auditView(base, auth) {
  const res = await get(base, "/v1/audit?limit=50", { headers: auth });
  const events = json(res)?.events;
  if (res.status !== 200 || !Array.isArray(events))
    return `HTTP ${res.status}${res.error ? ` ${res.error}` : ""}`;
  const view = events.map((e) => `${e.id}:${e.event}`).join(",");
  return `${events.length} newest events (${sha256(view).slice(0, 12)})`;
}

/**
 * The rows a token unlocks, read-only (a parity token from `airlock devices token` may only read): the attributes of
 * the probe cookie (set with the session cookie's own options) through each URL, and the audit feed seen through
 * both. Nothing is paired, recorded or revoked.
 */
async function smoke(bases, token) {
  const auth = { authorization: `Bearer ${token}` };
  const cookies = [];
  for (const base of bases) {
    const probe = await get(base, "/v1/parity/cookie", { headers: auth });
    const line = (probe.headers.getSetCookie?.() ?? []).find((c) => c.startsWith(`${PROBE_COOKIE}=`));
    cookies.push(probe.status === 200 ? cookieAttributes(line) : `HTTP ${probe.status}`);
  }
  // A, B, A again: an event landing between two reads shows in the second A, so B matches one of them.
  const first = await auditView(bases[0], auth);
  const b = await auditView(bases[1], auth);
  const again = b === first ? first : await auditView(bases[0], auth);
  return [
    { check: "session cookie attributes", a: cookies[0], b: cookies[1] },
    { check: "audit feed", a: b === again ? again : first, b },
  ];
}

export async function parity(bases, token) {
  const [A, B] = bases;
  const rows = [];
  const both = (path, init) => Promise.all([get(A, path, init), get(B, path, init)]);

  // API reachability and the Worker behind each URL.
  const [va, vb] = await both("/v1/version");
  const describeVersion = (r) =>
    r.status === 200
      ? `${json(r)?.version} (worker build ${json(r)?.build_id})`
      : `HTTP ${r.status}${r.error ? ` ${r.error}` : ""}`;
  rows.push({ check: "API reachable (/v1/version)", a: describeVersion(va), b: describeVersion(vb) });

  // The dashboard build and every file it lists.
  const [ma, mb] = await both("/asset-manifest.json");
  const manifestA = json(ma);
  const manifestB = json(mb);
  rows.push({
    check: "build id",
    a: manifestA?.build_id ?? `(none, HTTP ${ma.status})`,
    b: manifestB?.build_id ?? `(none, HTTP ${mb.status})`,
  });
  const files = [
    ...new Set([...Object.keys(manifestA?.files ?? {}), ...Object.keys(manifestB?.files ?? {})]),
  ].sort();
  for (const file of files) {
    // Servers may redirect /index.html to /; what matters is the bytes a browser ends up with.
    const [fa, fb] = await both(file, { redirect: "follow" });
    const hash = (r) => (r.status === 200 ? sha256(r.body) : `HTTP ${r.status}`);
    rows.push({ check: `asset ${file}`, a: hash(fa), b: hash(fb) });
    if (manifestA?.files?.[file] && fa.status === 200 && sha256(fa.body) !== manifestA.files[file]) {
      rows.push({ check: `asset ${file} matches A's manifest`, a: "no", b: "yes" });
    }
  }

  // Security headers of the page and of the API, CSP included.
  const [pa, pb] = await both("/");
  for (const name of SECURITY_HEADERS) {
    rows.push({
      check: `header ${name} (page)`,
      a: pa.headers.get(name) ?? "(missing)",
      b: pb.headers.get(name) ?? "(missing)",
    });
  }
  for (const name of SECURITY_HEADERS.filter((n) => n !== "permissions-policy")) {
    rows.push({
      check: `header ${name} (API)`,
      a: va.headers.get(name) ?? "(missing)",
      b: vb.headers.get(name) ?? "(missing)",
    });
  }

  // Every other HTML route and deep link: the same page, with the same security headers.
  for (const route of HTML_ROUTES) {
    const [ra, rb] = await both(route, { redirect: "follow" });
    const page = (r) => (r.status === 200 ? sha256(r.body) : `HTTP ${r.status}`);
    rows.push({ check: `page ${route}`, a: page(ra), b: page(rb) });
    const headers = (r) => SECURITY_HEADERS.map((n) => `${n}: ${r.headers.get(n) ?? "(missing)"}`).join("; ");
    rows.push({ check: `headers ${route}`, a: headers(ra), b: headers(rb) });
  }

  // The service worker both would install.
  const [sa, sb] = await both("/sw.js");
  const swVersion = (r) => (r.status === 200 ? sha256(r.body).slice(0, 16) : `HTTP ${r.status}`);
  rows.push({ check: "service worker version (/sw.js)", a: swVersion(sa), b: swVersion(sb) });
  rows.push({
    check: "service worker cache-control",
    a: sa.headers.get("cache-control") ?? "(missing)",
    b: sb.headers.get("cache-control") ?? "(missing)",
  });

  if (token) rows.push(...(await smoke(bases, token)));
  else {
    rows.push({ check: "session cookie attributes", a: "skipped (no --token)", b: "skipped (no --token)" });
    rows.push({ check: "audit feed", a: "skipped (no --token)", b: "skipped (no --token)" });
  }
  const unreachable = [va, vb].some((r) => r.status !== 200);
  return rows.map((r) => ({ ...r, ok: r.a === r.b && !(r.check.startsWith("API") && unreachable) }));
}

function table(rows, bases) {
  const width = Math.max(...rows.map((r) => r.check.length), 5);
  const cut = (s) => (s.length > 64 ? `${s.slice(0, 61)}…` : s);
  const lines = [`A = ${bases[0]}`, `B = ${bases[1]}`, ""];
  const drift = rows.filter((r) => !r.ok);
  if (!drift.length) {
    lines.push(`No drift: ${rows.length} checks match.`);
    return lines.join("\n");
  }
  lines.push(`${"check".padEnd(width)}  A  |  B`);
  for (const r of drift) lines.push(`${r.check.padEnd(width)}  ${cut(r.a)}  |  ${cut(r.b)}`);
  lines.push("", `${drift.length} difference${drift.length === 1 ? "" : "s"} in ${rows.length} checks.`);
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { bases, token, json: asJson } = parseArgs(process.argv.slice(2));
  const rows = await parity(bases, token);
  const drift = rows.filter((r) => !r.ok);
  if (asJson) console.log(JSON.stringify({ bases, ok: drift.length === 0, rows }, null, 2));
  else console.log(table(rows, bases));
  process.exit(drift.length ? 1 : 0);
}
