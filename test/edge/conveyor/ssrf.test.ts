// The SSRF corpus: every way to name an inside address, rebinding, redirects, and body caps, sent
// through the real guard against real loopback servers. An escape is any request reaching the
// internal (127.0.0.2) or metadata services; the corpus requires none.
import fc from "fast-check";
import ipaddr from "ipaddr.js";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { judgeAddress } from "../../../src/edge/conveyor/egress/address.ts";
import { loopbackKey } from "../../../src/edge/conveyor/egress/config.ts";
import { createEgress, type EgressResult } from "../../../src/edge/conveyor/egress/guard.ts";
import { parseTarget } from "../../../src/edge/conveyor/egress/target.ts";
import { executor, newOwner, uniqueKey } from "./support.ts";

const servers = inject("egress");
const P = servers.targetPort;
const M = servers.metadataPort;
const egress = createEgress({
  resolverUrl: servers.dohUrl,
  loopbackTargets: new Set([loopbackKey("127.0.0.1", P)]),
});

interface Stats {
  hits: { target: number; internal: number; metadata: number };
  dnsQueries: Record<string, number>;
}
const stats = async (): Promise<Stats> =>
  (await fetch(`${servers.controlUrl}/stats`)).json() as Promise<Stats>;
const dns = (records: Record<string, unknown>) =>
  fetch(`${servers.controlUrl}/dns`, { method: "POST", body: JSON.stringify(records) });

const get = (url: string, opts: { maxBytes?: number; timeoutMs?: number } = {}): Promise<EgressResult> =>
  egress.request({
    url,
    method: "GET",
    followRedirects: true,
    maxBytes: opts.maxBytes ?? 64 * 1024,
    timeoutMs: opts.timeoutMs ?? 3_000,
  });

// Spellings of loopback, private, link-local/metadata, CGNAT and other special addresses.
const blockedUrls: string[] = [
  `http://127.0.0.1:${M}/`,
  `http://127.1:${M}/`,
  `http://2130706433:${M}/`,
  `http://0x7f000001:${M}/`,
  `http://0x7f.0.0.1:${M}/`,
  `http://0177.0.0.1:${M}/`,
  `http://017700000001:${M}/`,
  `http://127.000.000.001:${M}/`,
  `http://127.0.0.2:${P}/`,
  `http://[::1]:${P}/`,
  `http://[0:0:0:0:0:0:0:1]:${P}/`,
  `http://[::ffff:127.0.0.1]:${P}/`,
  `http://[::ffff:7f00:2]:${P}/`,
  `http://[0:0:0:0:0:ffff:127.0.0.2]:${P}/`,
  `http://localhost:${P}/`,
  `http://LOCALHOST.:${P}/`,
  `http://api.localhost:${P}/`,
  "http://0.0.0.0/",
  "http://0/",
  "http://[::]/",
  "http://10.0.0.1/",
  "http://10.255.255.255/",
  "http://012.0.0.1/",
  "http://172.16.0.1/",
  "http://172.31.255.254/",
  "http://192.168.1.1/",
  "http://0xc0a80101/",
  "http://3232235777/",
  "http://[fd00::1]/",
  "http://[fc00::1]/",
  "http://169.254.169.254/latest/meta-data/",
  "http://169.254.0.1/",
  "http://2852039166/",
  "http://0xa9fea9fe/",
  "http://0251.0376.0251.0376/",
  "http://[fd00:ec2::254]/latest/meta-data/",
  "http://[fe80::1]/",
  "http://[::ffff:169.254.169.254]/",
  "http://[::ffff:a9fe:a9fe]/",
  "http://100.64.0.1/",
  "http://100.127.255.254/",
  "http://[64:ff9b::7f00:1]/",
  "http://[2002:7f00:1::]/",
  "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
  "http://224.0.0.1/",
  "http://255.255.255.255/",
  "http://192.0.2.1/",
  "http://198.18.0.1/",
  "http://[2001:db8::1]/",
  // IPv4-compatible ::/96: ipaddr.js calls these "unicast"; they are loopback, metadata and private.
  `http://[::7f00:1]:${M}/`,
  `http://[::7f00:2]:${P}/`,
  `http://[::127.0.0.2]:${P}/`,
  "http://[::a9fe:a9fe]/latest/meta-data/",
  "http://[::a00:1]/",
  "http://[0:0:0:0:0:0:a00:1]/",
  "http://[::c0a8:101]/",
  // The other IPv4-embedding forms, each with an inside IPv4, and a public IPv4 inside them too.
  `http://[::ffff:0:7f00:2]:${P}/`,
  "http://[64:ff9b::a9fe:a9fe]/",
  "http://[64:ff9b::808:808]/",
  "http://[64:ff9b:1::a9fe:a9fe]/",
  "http://[2002:a9fe:a9fe::]/",
  "http://[2002:808:808::1]/",
  "http://[::ffff:8.8.8.8]/",
  // Outside 2000::/3, or special blocks inside it, and IPv4 special-purpose blocks.
  "http://[100::1]/",
  "http://[2001:2::1]/",
  "http://[2001:10::1]/",
  "http://[3fff::1]/",
  "http://[4000::1]/",
  "http://[fec0::1]/",
  "http://192.88.99.1/",
  "http://198.51.100.7/",
  "http://203.0.113.7/",
  "http://240.0.0.1/",
  "file:///etc/passwd",
  "gopher://127.0.0.1:70/",
  "ftp://example.com/",
  "http://user:pass@example.com/",
  "javascript:alert(1)",
  "data:text/plain,hello",
  "http://intranet/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://printer.local/",
  "not a url",
];

beforeAll(async () => {
  await dns({
    "private.example.test": { A: ["10.0.0.1"] },
    "meta.example.test": { A: ["169.254.169.254"] },
    "v6loop.example.test": { AAAA: ["::1"] },
    "mapped.example.test": { AAAA: ["::ffff:127.0.0.2"] },
    "compat.example.test": { AAAA: ["::7f00:2"] },
    "compat-meta.example.test": { AAAA: ["::a9fe:a9fe"] },
    "ula.example.test": { AAAA: ["fd00:ec2::254"] },
    "mixed.example.test": { A: ["127.0.0.1", "127.0.0.2"] },
    "odd.example.test": { A: ["0x7f.1"] },
    "servfail.example.test": { status: 2 },
    "allowed.example.test": { A: ["127.0.0.1"] },
    "rebind.example.test": { rebindA: [["127.0.0.1"], ["127.0.0.2"]] },
    "rebind-hop.example.test": { rebindA: [["127.0.0.2"]] },
  });
});

describe("SSRF corpus", () => {
  it.each(blockedUrls)("refuses %s before connecting", async (url) => {
    const result = await get(url);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.kind).toBe("blocked");
  });

  it.each([
    ["private.example.test", "10.0.0.1"],
    ["meta.example.test", "169.254.169.254"],
    ["v6loop.example.test", "::1"],
    ["mapped.example.test", "127.0.0.2 is a loopback"],
    ["compat.example.test", "127.0.0.2 is a loopback"],
    ["compat-meta.example.test", "169.254.169.254 is a link-local"],
    ["ula.example.test", "uniqueLocal"],
    ["mixed.example.test", "127.0.0.2"],
    ["odd.example.test", "not an IP address"],
  ])("refuses %s by its DNS answer (%s)", async (name, why) => {
    const result = await get(`http://${name}:${P}/ok`);
    expect(result).toMatchObject({ ok: false, kind: "blocked" });
    if (!result.ok) expect(result.reason).toContain(why);
  });

  it.each(["nxdomain.example.test", "servfail.example.test"])(
    "fails closed when %s does not resolve",
    async (name) => {
      expect(await get(`http://${name}:${P}/ok`)).toMatchObject({ ok: false, kind: "unavailable" });
    },
  );

  it("pins the checked answer: a rebinding name never reaches the second address", async () => {
    for (let i = 0; i < 3; i++) {
      const result = await get(`http://rebind.example.test:${P}/ok`);
      // The first answer (allowed) was dialled; later answers point inside and are refused.
      if (i === 0) expect(result.ok).toBe(true);
      else expect(result).toMatchObject({ ok: false, kind: "blocked" });
    }
    expect((await stats()).dnsQueries["rebind.example.test"]).toBe(6); // A + AAAA per request, once each
  });

  it.each([
    [`/redirect?to=${encodeURIComponent("http://169.254.169.254/latest/meta-data/")}`, "metadata"],
    [`/redirect?to=${encodeURIComponent(`http://127.0.0.1:${M}/`)}`, "loopback port"],
    [`/redirect?to=${encodeURIComponent(`http://[::ffff:127.0.0.2]:${P}/`)}`, "mapped"],
    [`/redirect?to=${encodeURIComponent("file:///etc/passwd")}`, "file scheme"],
    [`/redirect?to=${encodeURIComponent(`http://rebind-hop.example.test:${P}/ok`)}`, "rebinding hop"],
    [`/redirect?to=${encodeURIComponent(`http://2130706433:${M}/`)}`, "decimal spelling"],
    ["/chain?n=4", "four redirects"],
  ])("re-checks every redirect hop: %s (%s)", async (path) => {
    const result = await get(`http://127.0.0.1:${P}${path}`);
    expect(result).toMatchObject({ ok: false, kind: "blocked" });
  });

  it("follows up to three redirects to an allowed target", async () => {
    const result = await get(`http://allowed.example.test:${P}/chain?n=3`);
    expect(result).toMatchObject({ ok: true, redirects: 3 });
    if (result.ok) expect(new TextDecoder().decode(result.response.body)).toBe("hello");
  });

  it.each([
    ["/big?bytes=70000", "too_large"],
    ["/big-chunked?bytes=200000", "too_large"],
  ])("caps response bytes: %s", async (path, kind) => {
    expect(await get(`http://127.0.0.1:${P}${path}`)).toMatchObject({ ok: false, kind });
  });

  it.each(["/slow", "/hang"])("caps time: %s", async (path) => {
    const result = await get(`http://127.0.0.1:${P}${path}`, { timeoutMs: 600 });
    expect(result).toMatchObject({ ok: false, kind: "timeout" });
  });

  it("answers a body within the caps", async () => {
    const result = await get(`http://127.0.0.1:${P}/big?bytes=60000`);
    expect(result.ok && result.response.body.byteLength).toBe(60000);
  });

  it("refuses an http resolver unless a test entry allowed loopback targets", async () => {
    const strict = createEgress({ resolverUrl: servers.dohUrl, loopbackTargets: new Set() });
    expect(
      await strict.request({
        url: "https://example.com/",
        method: "GET",
        followRedirects: false,
        maxBytes: 1,
        timeoutMs: 100,
      }),
    ).toMatchObject({
      ok: false,
      kind: "unavailable",
    });
  });

  // Both web tools leave through the guard: the embedded-IPv4 corpus is refused by each, as
  // permission_denied, before any connection.
  it.each(
    ["web.fetch", "http.request"].flatMap((tool) =>
      [
        `http://[::7f00:2]:${P}/`,
        `http://[::7f00:1]:${M}/`,
        "http://[::a9fe:a9fe]/latest/meta-data/",
        "http://[::a00:1]/",
        `http://[::ffff:7f00:2]:${P}/`,
        "http://[64:ff9b::a9fe:a9fe]/",
        "http://[2002:7f00:2::]/",
        "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
      ].map((url) => [tool, url] as const),
    ),
  )("%s refuses %s", async (tool, url) => {
    const owner = await newOwner();
    const args =
      tool === "web.fetch" ? { url, timeout_ms: 1_000 } : { method: "GET", url, timeout_ms: 1_000 };
    const result = await executor().execute({
      ownerId: owner,
      tool,
      key: uniqueKey("ssrf"),
      args,
      actor: "test",
    });
    expect(result).toMatchObject({
      ok: true,
      envelope: { status: "failed", failure: { class: "permission_denied" } },
    });
  });

  it("had zero escapes: nothing reached the internal or metadata services", async () => {
    const { hits } = await stats();
    expect(hits.internal).toBe(0);
    expect(hits.metadata).toBe(0);
  });
});

describe("address and URL judgement (property)", () => {
  const spell = (n: number, how: number) =>
    how === 0 ? String(n) : how === 1 ? `0x${n.toString(16)}` : `0${n.toString(8)}`;
  const inside = fc.oneof(
    fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(0), fc.nat(255), fc.nat(255), fc.nat(255)),
  );

  it("no spelling of an inside IPv4 address is judged dialable", () => {
    fc.assert(
      fc.property(
        inside,
        fc.array(fc.nat(2), { minLength: 4, maxLength: 4 }),
        fc.boolean(),
        (octets, hows, whole) => {
          const value = ((octets[0] << 24) >>> 0) + (octets[1] << 16) + (octets[2] << 8) + octets[3];
          const host = whole
            ? spell(value, hows[0] ?? 0)
            : octets.map((o, i) => spell(o, hows[i] ?? 0)).join(".");
          const parsed = parseTarget(`http://${host}/`);
          if (!parsed.ok) return true;
          return parsed.target.literal && !judgeAddress(parsed.target.host).ok;
        },
      ),
      { numRuns: 500 },
    );
  });

  const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
  // Every IPv6 form that carries an IPv4 address, written with the given inside address.
  const embeddings: ((o: number[], v4: string) => string)[] = [
    (_, v4) => `::ffff:${v4}`,
    (o) => `::ffff:${hex(o[0] ?? 0, o[1] ?? 0)}:${hex(o[2] ?? 0, o[3] ?? 0)}`,
    (_, v4) => `::${v4}`,
    (o) => `::${hex(o[0] ?? 0, o[1] ?? 0)}:${hex(o[2] ?? 0, o[3] ?? 0)}`,
    (o) => `::ffff:0:${hex(o[0] ?? 0, o[1] ?? 0)}:${hex(o[2] ?? 0, o[3] ?? 0)}`,
    (o) => `64:ff9b::${hex(o[0] ?? 0, o[1] ?? 0)}:${hex(o[2] ?? 0, o[3] ?? 0)}`,
    (o) => `64:ff9b:1::${hex(o[0] ?? 0, o[1] ?? 0)}:${hex(o[2] ?? 0, o[3] ?? 0)}`,
    (o) => `2002:${hex(o[0] ?? 0, o[1] ?? 0)}:${hex(o[2] ?? 0, o[3] ?? 0)}::1`,
    (o) => `2001:0:${hex(o[0] ?? 0, o[1] ?? 0)}:${hex(o[2] ?? 0, o[3] ?? 0)}::1`,
  ];

  it("no IPv4-embedding IPv6 form (mapped, compatible, SIIT, NAT64, 6to4, Teredo) of an inside address is dialable", () => {
    fc.assert(
      fc.property(inside, fc.nat(embeddings.length - 1), (octets, form) => {
        const host = (embeddings[form] ?? embeddings[0])?.(octets, octets.join(".")) ?? "";
        const parsed = parseTarget(`http://[${host}]/`);
        return parsed.ok && !judgeAddress(parsed.target.host).ok;
      }),
      { numRuns: 600 },
    );
  });

  it("an IPv6 address is dialable only inside 2000::/3 and outside the embedding prefixes", () => {
    // Random addresses, half of them forced into the interesting low and 2000::/3 prefixes.
    const first = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }),
      fc.constantFrom(0, 0x64, 0x2001, 0x2002, 0x3fff),
    );
    const rest = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 7, maxLength: 7 });
    fc.assert(
      fc.property(first, rest, fc.boolean(), (head, tail, zeroes) => {
        const parts = zeroes ? [head, 0, 0, 0, 0, ...tail.slice(5)] : [head, ...tail];
        const text = parts.map((p) => p.toString(16)).join(":");
        const verdict = judgeAddress(text);
        if (!verdict.ok) return true;
        const globalUnicast = head >= 0x2000 && head <= 0x3fff;
        const embeds = head === 0x2002 || (head === 0x2001 && (parts[1] ?? 0) < 0x200);
        return globalUnicast && !embeds && !(head === 0x2001 && parts[1] === 0xdb8);
      }),
      { numRuns: 2_000 },
    );
  });

  it("an IPv4 address is dialable only if ipaddr.js also calls it unicast", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(255), { minLength: 4, maxLength: 4 }), (octets) => {
        const verdict = judgeAddress(octets.join("."));
        return !verdict.ok || ipaddr.parse(octets.join(".")).range() === "unicast";
      }),
      { numRuns: 2_000 },
    );
  });
});
