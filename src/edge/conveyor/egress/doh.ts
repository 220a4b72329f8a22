// DNS over HTTPS (the JSON API of RFC 8484 resolvers): workerd has no raw DNS, so the conveyor asks a
// configured resolver for A and AAAA records itself, judges every answer, and dials the one it judged.
import { z } from "zod";

const DnsAnswer = z.object({
  Status: z.number().int(),
  Answer: z.array(z.object({ name: z.string(), type: z.number().int(), data: z.string() })).optional(),
});

const RECORD_TYPES = { A: 1, AAAA: 28 } as const;

export type Resolution = { ok: true; addresses: string[] } | { ok: false; reason: string };

export interface Resolver {
  resolve(name: string, deadline: number): Promise<Resolution>;
}

async function query(
  resolverUrl: string,
  name: string,
  type: keyof typeof RECORD_TYPES,
  deadline: number,
): Promise<string[]> {
  const url = new URL(resolverUrl);
  url.searchParams.set("name", name);
  url.searchParams.set("type", type);
  const res = await fetch(url, {
    headers: { accept: "application/dns-json" },
    signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
  });
  if (!res.ok) throw new Error(`resolver answered HTTP ${res.status}`);
  const parsed = DnsAnswer.safeParse(await res.json());
  if (!parsed.success) throw new Error("resolver answer is not DNS JSON");
  // NXDOMAIN (3) and NOERROR-without-data are empty answers; SERVFAIL and the rest are failures.
  if (parsed.data.Status !== 0 && parsed.data.Status !== 3)
    throw new Error(`DNS status ${parsed.data.Status}`);
  // CNAME chains come back whole; only the address records of the wanted type count.
  return (parsed.data.Answer ?? []).filter((a) => a.type === RECORD_TYPES[type]).map((a) => a.data.trim());
}

export function dohResolver(resolverUrl: string): Resolver {
  return {
    async resolve(name, deadline) {
      try {
        const [v4, v6] = await Promise.all([
          query(resolverUrl, name, "A", deadline),
          query(resolverUrl, name, "AAAA", deadline),
        ]);
        const addresses = [...v4, ...v6];
        if (addresses.length === 0) return { ok: false, reason: `${name} has no A or AAAA record` };
        return { ok: true, addresses };
      } catch (error) {
        return {
          ok: false,
          reason: `DNS lookup of ${name} failed: ${error instanceof Error ? error.message : "error"}`,
        };
      }
    },
  };
}
