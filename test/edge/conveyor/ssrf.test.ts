// The SSRF corpus: every way to name an inside address, rebinding, redirects, and body caps, sent
// through the real guard against real loopback servers. An escape is any request reaching the
// internal (127.0.0.2) or metadata services; the corpus requires none.
import fc from "fast-check";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { judgeAddress } from "../../../src/edge/conveyor/egress/address.ts";
import { loopbackKey } from "../../../src/edge/conveyor/egress/config.ts";
import { createEgress, type EgressResult } from "../../../src/edge/conveyor/egress/guard.ts";
import { parseTarget } from "../../../src/edge/conveyor/egress/target.ts";

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

  it("no IPv4-mapped, NAT64 or 6to4 form of an inside address is dialable", () => {
    fc.assert(
      fc.property(inside, fc.nat(2), (octets, form) => {
        const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
        const v4 = octets.join(".");
        const host =
          form === 0
            ? `::ffff:${v4}`
            : form === 1
              ? `64:ff9b::${hex(octets[0], octets[1])}:${hex(octets[2], octets[3])}`
              : `2002:${hex(octets[0], octets[1])}:${hex(octets[2], octets[3])}::1`;
        const parsed = parseTarget(`http://[${host}]/`);
        return parsed.ok && !judgeAddress(parsed.target.host).ok;
      }),
      { numRuns: 300 },
    );
  });
});
