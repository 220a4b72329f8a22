#!/usr/bin/env node
// Release gate "production smoke + audit parity" between two deployments of the dashboard (e.g. *.pages.dev and
// the custom domain): compares build id, every asset's hash, security headers and CSP, the service worker, API
// reachability and version, session cookie attributes and the audit feed of a smoke call seen through both.
// Prints a table of differences; exits 1 on any drift, 2 on bad usage.
//
//   npm run parity -- https://airlock-dashboard.pages.dev https://airlock.example.com [--token alk_…] [--json]
//
// --token (or AIRLOCK_PARITY_TOKEN): a bearer token of an approver device. With it the check also pairs a throwaway
// browser device through each URL (cookie attributes), records a smoke audit event through each URL and reads the
// audit feed back through both, then revokes the throwaway devices. Without it those rows say "skipped".
import { createHash, randomUUID } from "node:crypto";

const SECURITY_HEADERS = [
  "content-security-policy",
  "strict-transport-security",
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "permissions-policy",
];
const COOKIE = "airlock_session";

function usage(message) {
  if (message) console.error(message);
  console.error("Usage: npm run parity -- <url-a> <url-b> [--token <approver token>] [--json]");
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

async function smoke(bases, token) {
  const rows = [];
  const auth = { authorization: `Bearer ${token}` };
  const devices = [];
  const cookies = [];
  for (const base of bases) {
    const code = json(
      await get(base, "/v1/pairing/code", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ role: "approver" }),
      }),
    )?.code;
    if (!code) {
      cookies.push("(could not mint a pairing code)");
      continue;
    }
    const bound = await get(base, "/v1/pairing/bind", {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ code, device_name: "parity smoke", kind: "browser" }),
    });
    const deviceId = json(bound)?.device_id;
    if (deviceId) devices.push({ base, deviceId });
    const line = (bound.headers.getSetCookie?.() ?? []).find((c) => c.startsWith(`${COOKIE}=`));
    cookies.push(cookieAttributes(line));
  }
  rows.push({ check: "session cookie attributes", a: cookies[0], b: cookies[1] });

  // A smoke event recorded through each URL must be visible, identical, through both.
  const marks = [];
  for (const base of bases) {
    const callId = `parity-${randomUUID()}`;
    marks.push(callId);
    await get(base, "/v1/audit/events", {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({
        events: [
          {
            call_id: callId,
            session_id: "parity",
            agent_id: "parity-check",
            tool: "parity",
            capability: "read",
            risk: "low",
            action: "allow",
            layer: "parity",
            rule: null,
            scope_hash: "0".repeat(64),
            at: new Date().toISOString(),
          },
        ],
      }),
    });
  }
  const feeds = [];
  for (const base of bases) {
    const feed = json(await get(base, "/v1/audit?agent=parity-check&limit=100", { headers: auth }));
    const events = (feed?.events ?? []).filter((e) => marks.includes(e.target));
    feeds.push(
      events
        .map((e) => `${e.target}:${e.event}:${e.decision}:${e.id}`)
        .sort()
        .join(",") || "(no smoke events)",
    );
  }
  const seen = (feed) => marks.every((m) => feed.includes(m));
  rows.push({
    check: "audit feed of the smoke calls",
    a: seen(feeds[0]) ? `both smoke events (${sha256(feeds[0]).slice(0, 12)})` : feeds[0],
    b: seen(feeds[1]) ? `both smoke events (${sha256(feeds[1]).slice(0, 12)})` : feeds[1],
  });
  for (const { base, deviceId } of devices) {
    await get(base, `/v1/devices/${deviceId}/revoke`, { method: "POST", headers: auth });
  }
  return rows;
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
    rows.push({
      check: "audit feed of the smoke calls",
      a: "skipped (no --token)",
      b: "skipped (no --token)",
    });
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
