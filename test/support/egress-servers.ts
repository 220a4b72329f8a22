// Local servers the conveyor's tests send traffic to, all on loopback: a DNS-over-HTTPS resolver that
// answers whatever a test scripts (rebinding included), a target service that counts side effects by
// Idempotency-Key and misbehaves on request (redirects, huge and slow bodies), and "internal" services
// that play the metadata endpoint and a private service: any request that reaches them is an escape.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { json, readBody } from "./http-io.ts";

export interface DnsRecords {
  A?: string[];
  AAAA?: string[];
  /** Successive answers to A queries (the last one repeats): DNS rebinding. */
  rebindA?: string[][];
  /** A DNS status other than NOERROR (2 = SERVFAIL, 3 = NXDOMAIN). */
  status?: number;
}

export interface EgressServers {
  /** http://127.0.0.1:<port>/dns-query */
  dohUrl: string;
  /** The service tests may reach: 127.0.0.1:<targetPort>. */
  targetPort: number;
  /** Same port as the target, on 127.0.0.2: where a rebinding or redirect attack would land. */
  internalAddress: string;
  /** Another port on 127.0.0.1, never allowed: the "metadata" service. */
  metadataPort: number;
  /** http://127.0.0.1:<controlPort>: POST /dns, GET /stats, POST /reset. */
  controlUrl: string;
  close(): Promise<void>;
}

interface Stored {
  status: number;
  body: string;
}

function listen(server: Server, host: string, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startEgressServers(): Promise<EgressServers> {
  const records = new Map<string, DnsRecords>();
  const rebindCount = new Map<string, number>();
  const dnsQueries = new Map<string, number>();
  /** Side effects by Idempotency-Key (or a fresh id when none was sent). */
  const effects = new Map<string, Stored>();
  const effectCounts = new Map<string, number>();
  const hits = { target: 0, internal: 0, metadata: 0 };
  const paths: string[] = [];
  const sockets = new Set<import("node:net").Socket>();

  const doh = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const name = (url.searchParams.get("name") ?? "").replace(/\.$/, "").toLowerCase();
    const type = url.searchParams.get("type") ?? "A";
    dnsQueries.set(name, (dnsQueries.get(name) ?? 0) + 1);
    const entry = records.get(name);
    if (!entry) return json(res, 200, { Status: 3, Answer: [] });
    if (entry.status !== undefined) return json(res, 200, { Status: entry.status });
    let data: string[] = [];
    if (type === "A") {
      if (entry.rebindA) {
        const n = rebindCount.get(name) ?? 0;
        rebindCount.set(name, n + 1);
        data = entry.rebindA[Math.min(n, entry.rebindA.length - 1)] ?? [];
      } else data = entry.A ?? [];
    } else if (type === "AAAA") data = entry.AAAA ?? [];
    const rrtype = type === "AAAA" ? 28 : 1;
    json(res, 200, {
      Status: 0,
      // A CNAME first, as real resolvers send chains: only the address records may count.
      Answer: [
        { name, type: 5, TTL: 0, data: `alias.${name}.` },
        ...data.map((d) => ({ name: `alias.${name}`, type: rrtype, TTL: 0, data: d })),
      ],
    });
  });

  const target = createServer(async (req, res) => {
    hits.target += 1;
    const url = new URL(req.url ?? "/", "http://x");
    paths.push(`${req.method} ${url.pathname}${url.search}`);
    const body = await readBody(req);
    switch (url.pathname) {
      case "/ok":
        res.writeHead(200, { "content-type": "text/plain", "content-length": "5" });
        return res.end("hello");
      case "/page": {
        // A page for the hosted runtime's web.fetch: `say` is its text (planted instructions, secrets).
        const text = `<html><body><h1>Status page</h1><p>${url.searchParams.get("say") ?? "All systems green."}</p></body></html>`;
        res.writeHead(200, {
          "content-type": "text/html",
          "content-length": String(Buffer.byteLength(text)),
        });
        return res.end(text);
      }
      case "/echo":
        return json(res, 200, { method: req.method, headers: req.headers, body, path: url.pathname });
      case "/effect": {
        const key = String(req.headers["idempotency-key"] ?? `anon-${crypto.randomUUID()}`);
        const seen = effects.get(key);
        if (seen) return json(res, seen.status, JSON.parse(seen.body), { "idempotent-replayed": "true" });
        const count = (effectCounts.get(key) ?? 0) + 1;
        effectCounts.set(key, count);
        const stored = { status: 201, body: JSON.stringify({ effect: key, applied: count, received: body }) };
        effects.set(key, stored);
        return json(res, stored.status, JSON.parse(stored.body));
      }
      case "/fail":
        return json(res, 500, { error: "downstream failure" });
      case "/redirect": {
        res.writeHead(302, { location: url.searchParams.get("to") ?? "/ok", "content-length": "0" });
        return res.end();
      }
      case "/chain": {
        const n = Number(url.searchParams.get("n") ?? "0");
        const next = n <= 1 ? "/ok" : `/chain?n=${n - 1}`;
        res.writeHead(302, { location: next, "content-length": "0" });
        return res.end();
      }
      case "/big": {
        const bytes = Number(url.searchParams.get("bytes") ?? "0");
        res.writeHead(200, { "content-type": "text/plain", "content-length": String(bytes) });
        return res.end("x".repeat(bytes));
      }
      case "/big-chunked": {
        const bytes = Number(url.searchParams.get("bytes") ?? "0");
        res.writeHead(200, { "content-type": "text/plain" });
        for (let sent = 0; sent < bytes; sent += 4096) res.write("x".repeat(Math.min(4096, bytes - sent)));
        return res.end();
      }
      case "/slow": {
        // Headers at once, then one byte every 100 ms, for ever (until the client gives up).
        res.writeHead(200, { "content-type": "text/plain" });
        const timer = setInterval(() => res.write("."), 100);
        res.on("close", () => clearInterval(timer));
        return;
      }
      case "/hang":
        // Never answers; the socket is closed when the client gives up or the servers stop.
        return;
      default:
        return json(res, 404, { error: "no such path" });
    }
  });
  target.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });

  const internal = createServer((_req, res) => {
    hits.internal += 1;
    json(res, 200, { secret: "internal service reached" });
  });
  const metadata = createServer((_req, res) => {
    hits.metadata += 1;
    json(res, 200, { secret: "metadata reached" });
  });

  const control = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "POST" && url.pathname === "/dns") {
      const body = JSON.parse(await readBody(req)) as Record<string, DnsRecords>;
      for (const [name, entry] of Object.entries(body)) {
        records.set(name.toLowerCase(), entry);
        rebindCount.delete(name.toLowerCase());
      }
      return json(res, 200, { ok: true });
    }
    if (url.pathname === "/stats") {
      return json(res, 200, {
        hits,
        paths,
        effects: Object.fromEntries(effectCounts),
        dnsQueries: Object.fromEntries(dnsQueries),
      });
    }
    return json(res, 404, {});
  });

  const dohPort = await listen(doh, "127.0.0.1");
  const targetPort = await listen(target, "127.0.0.1");
  // The internal service shares the target's port on another loopback address: only the pinned
  // address decides which of the two a request reaches.
  await listen(internal, "127.0.0.2", targetPort);
  const metadataPort = await listen(metadata, "127.0.0.1");
  const controlPort = await listen(control, "127.0.0.1");

  return {
    dohUrl: `http://127.0.0.1:${dohPort}/dns-query`,
    targetPort,
    internalAddress: "127.0.0.2",
    metadataPort,
    controlUrl: `http://127.0.0.1:${controlPort}`,
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all(
        [doh, target, internal, metadata, control].map(
          (server) => new Promise<void>((resolve) => server.close(() => resolve())),
        ),
      );
    },
  };
}
