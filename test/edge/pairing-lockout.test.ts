// Pairing lockouts are per code and per client, never global; the recovery code locks per client, with
// bounded, aggregated audit.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { clientAddress, UNTRUSTED_CLIENT } from "../../src/edge/auth/client-address.ts";
import { hmacHex } from "../../src/edge/auth/crypto.ts";
import { bucketOfCode } from "../../src/edge/auth/pairing.ts";
import { RECOVERY_MAX_FAILURES } from "../../src/edge/auth/recovery-guard.ts";
import { ADMIN, api, errorOf, ownerCode, recoveryCode, rememberRecoveryCode } from "./helpers.ts";

const bind = (code: string, ip: string, kind: "companion" | "browser" = "companion") =>
  api("/v1/pairing/bind", {
    method: "POST",
    headers: { "cf-connecting-ip": ip },
    json: { code, device_name: "laptop", kind },
  });

/** Wrong 8-digit guesses whose HMAC lands (or never lands) in the bucket of `code`. */
async function guesses(code: string, sameBucket: boolean, n: number): Promise<string[]> {
  const target = await bucketOfCode(env.TOKEN_PEPPER, code);
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    const guess = String(10_000_000 + i * 7919).padStart(8, "0");
    if (guess === code) continue;
    if (((await bucketOfCode(env.TOKEN_PEPPER, guess)) === target) === sameBucket) out.push(guess);
  }
  return out;
}

describe("per-code lockout", () => {
  it("five wrong guesses from five clients lock neither the live code nor the recovery code", async () => {
    const code = await ownerCode();
    for (const [i, guess] of (await guesses(code, false, 5)).entries()) {
      expect((await bind(guess, `192.0.2.${10 + i}`)).status).toBe(401);
    }
    expect((await bind(code, "192.0.2.50")).status).toBe(201);
    const recovered = await api("/v1/recovery/pairing-code", {
      method: "POST",
      json: { recovery_code: await recoveryCode(), role: "approver" },
    });
    expect(recovered.status).toBe(201);
  });

  it("locks only the code that five wrong guesses could have been; another live code still binds", async () => {
    const target = await ownerCode();
    const other = await ownerCode();
    for (const [i, guess] of (await guesses(target, true, 5)).entries()) {
      expect((await bind(guess, `192.0.2.${60 + i}`)).status).toBe(401);
    }
    const locked = await bind(target, "192.0.2.70");
    expect(locked.status).toBe(429);
    expect(await errorOf(locked)).toMatchObject({ code: "rate_limited" });
    expect((await bind(other, "192.0.2.71")).status).toBe(201);
  });

  it("gives every live code its own bucket", async () => {
    const codes = await Promise.all(Array.from({ length: 8 }, () => ownerCode()));
    const buckets = await Promise.all(codes.map((c) => bucketOfCode(env.TOKEN_PEPPER, c)));
    expect(new Set(buckets).size).toBe(codes.length);
  });
});

describe("per-client lockout", () => {
  it("five wrong codes lock that client, not the next one", async () => {
    const code = await ownerCode();
    // A wrong code outside `code`'s bucket, so the per-code lockout (1 in BUCKETS otherwise) stays out of it.
    const [wrong] = await guesses(code, false, 1);
    for (let i = 0; i < 5; i++) expect((await bind(wrong as string, "198.51.100.40")).status).toBe(401);
    expect((await bind(code, "198.51.100.40")).status).toBe(429);
    expect((await bind(code, "198.51.100.41")).status).toBe(201);
  });

  it("counts an IPv6 client by its /64: rotating the interface id does not reset the count", async () => {
    const code = await ownerCode();
    const [wrong] = await guesses(code, false, 1);
    for (let i = 0; i < 5; i++) await bind(wrong as string, `2001:db8:1:2::${i + 1}`);
    expect((await bind(code, "2001:db8:1:2:ffff::9")).status).toBe(429);
    expect((await bind(code, "2001:db8:1:3::1")).status).toBe(201);
  });
});

describe("bounded audit of wrong pairing codes", () => {
  /** This file's rows only (other files bind wrong codes meanwhile): by the client's row name, or the code. */
  const rowsOf = async (event: string, which: { client: string } | { code: string }) => {
    const [column, value] =
      "client" in which
        ? ["id", `aud_pf_${(await hmacHex(env.TOKEN_PEPPER, `client:${which.client}`)).slice(0, 24)}_%`]
        : ["target", which.code];
    return env.DB.prepare(
      `SELECT user_id, target, details FROM audit_log WHERE event = ? AND ${column} LIKE ?`,
    )
      .bind(event, value)
      .all<{ user_id: string | null; target: string | null; details: string }>();
  };

  it("five wrong codes from one client leave one row with the aggregate, on the account of the code they hit", async () => {
    const code = await ownerCode();
    const owner = await env.DB.prepare("SELECT user_id, id FROM pairing_codes WHERE code_hash = ?")
      .bind(await hmacHex(env.TOKEN_PEPPER, `pairing:${code}`))
      .first<{ user_id: string; id: string }>();
    const [miss1, miss2, miss3] = await guesses(code, false, 3);
    const [hit1, hit2] = await guesses(code, true, 2);
    // Two of the five could have been `code` (the first one among them); the others land in buckets no
    // code of this test owns (another file's live code may own one).
    for (const guess of [hit1, miss1, miss2, hit2, miss3] as string[])
      expect((await bind(guess, "192.0.2.200")).status).toBe(401);
    expect((await bind(code, "192.0.2.200")).status).toBe(429);
    // Another client is another row.
    expect((await bind(miss1 as string, "192.0.2.201")).status).toBe(401);

    const [first, ...others] = (await rowsOf("auth.pairing_failed", { client: "192.0.2.200" })).results;
    expect(others).toHaveLength(0);
    const [second, ...more] = (await rowsOf("auth.pairing_failed", { client: "192.0.2.201" })).results;
    expect(more).toHaveLength(0);
    expect(first?.user_id).toBe(owner?.user_id);
    expect(first?.target).toBe(owner?.id);
    const aggregate = JSON.parse(first?.details ?? "{}");
    expect(aggregate).toMatchObject({ kind: "companion", client_failures: 5, locked: true });
    expect(aggregate.codes_blamed.filter((id: string) => id === owner?.id)).toHaveLength(2);
    expect(JSON.parse(second?.details ?? "{}")).toMatchObject({ client_failures: 1, locked: false });
  });

  it("the right code presented again and again while locked is one row that counts the attempts", async () => {
    const code = await ownerCode();
    const locked = await env.DB.prepare("SELECT id FROM pairing_codes WHERE code_hash = ?")
      .bind(await hmacHex(env.TOKEN_PEPPER, `pairing:${code}`))
      .first<{ id: string }>();
    for (const [i, guess] of (await guesses(code, true, 5)).entries())
      expect((await bind(guess, `192.0.2.${210 + i}`)).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await bind(code, `192.0.2.${220 + i}`)).status).toBe(429);
    const rows = (await rowsOf("auth.pairing_locked", { code: locked?.id ?? "" })).results;
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]?.details ?? "{}")).toMatchObject({ attempts: 3 });
  });
});

describe("the recovery code", () => {
  const tryRecovery = (recovery_code: string, ip: string) =>
    api("/v1/recovery/pairing-code", {
      method: "POST",
      headers: { "cf-connecting-ip": ip },
      json: { recovery_code },
    });
  const wrong = (i: number) => `0000-0000-0000-0000-0000-${String(i % 10_000).padStart(4, "0")}`;

  it(`locks a client out after ${RECOVERY_MAX_FAILURES} wrong codes (even the right one waits); other clients still mint`, async () => {
    const right = await recoveryCode();
    for (let i = 0; i < RECOVERY_MAX_FAILURES; i++)
      expect((await tryRecovery(wrong(i), "203.0.113.99")).status).toBe(401);
    const locked = await tryRecovery(right, "203.0.113.99");
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await errorOf(locked)).code).toBe("rate_limited");
    expect((await tryRecovery(right.toLowerCase(), "203.0.113.100")).status).toBe(201);
  });

  it("hundreds of wrong codes are locked out and leave five aggregated audit rows on the owner's account", async () => {
    await recoveryCode();
    const owner = await env.DB.prepare("SELECT id FROM users WHERE role = 'owner'").first<{ id: string }>();
    const statuses: Record<number, number> = {};
    // 20 clients x 10 wrong codes each: every one ends locked, and its next guess is refused unread.
    for (let i = 0; i < 200; i++) {
      const res = await tryRecovery(wrong(i), `198.51.100.${Math.floor(i / 10)}`);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
    for (let c = 0; c < 20; c++) expect((await tryRecovery(wrong(c), `198.51.100.${c}`)).status).toBe(429);
    expect(statuses).toEqual({ 401: 200 });
    const rows = await env.DB.prepare(
      "SELECT user_id, event, details FROM audit_log WHERE event LIKE 'auth.recovery_%' ORDER BY at",
    ).all<{ user_id: string | null; event: string; details: string }>();
    // Wrong codes at 1, 10, 100 (220 counted, no row past 100), locked clients at 1 and 10: five rows, all the
    // owner's.
    expect(rows.results.map((r) => r.event).sort()).toEqual([
      "auth.recovery_failed",
      "auth.recovery_failed",
      "auth.recovery_failed",
      "auth.recovery_locked",
      "auth.recovery_locked",
    ]);
    expect(rows.results.every((r) => r.user_id === owner?.id)).toBe(true);
    const last = rows.results.filter((r) => r.event === "auth.recovery_failed").at(-1);
    expect(JSON.parse(last?.details ?? "{}")).toMatchObject({ failures_in_window: 100 });
  }, 60_000);

  it("mints an approver code by default, which binds a browser as an approver", async () => {
    const res = await api("/v1/recovery/pairing-code", {
      method: "POST",
      json: { recovery_code: await recoveryCode() },
    });
    const minted = (await res.json()) as { code: string; role: string };
    expect(minted.role).toBe("approver");
    const bound = await bind(minted.code, "203.0.113.120", "browser");
    expect(bound.status).toBe(201);
    expect(await bound.json()).toMatchObject({ role: "approver" });
  });

  it("rotating it through the admin route retires the old one", async () => {
    const old = await recoveryCode();
    const rotated = await api("/v1/admin/recovery-code", {
      method: "POST",
      headers: { authorization: ADMIN },
    });
    const { recovery_code } = (await rotated.json()) as { recovery_code: string };
    rememberRecoveryCode(recovery_code);
    expect(recovery_code).not.toBe(old);
    const stale = await api("/v1/recovery/pairing-code", { method: "POST", json: { recovery_code: old } });
    expect(stale.status).toBe(401);
    const fresh = await api("/v1/recovery/pairing-code", { method: "POST", json: { recovery_code } });
    expect(fresh.status).toBe(201);
  });
});

describe("which client a request comes from", () => {
  const headers = (ip: string) => new Headers({ "cf-connecting-ip": ip });

  it("trusts CF-Connecting-IP only where Cloudflare sets it", () => {
    expect(clientAddress({ AIRLOCK_TRUST_CF_CONNECTING_IP: "true" }, headers("198.51.100.7"))).toBe(
      "198.51.100.7",
    );
    // wrangler dev passes a client's own header through: there every caller is one client.
    expect(clientAddress({ AIRLOCK_TRUST_CF_CONNECTING_IP: "false" }, headers("198.51.100.7"))).toBe(
      UNTRUSTED_CLIENT,
    );
    expect(clientAddress({ AIRLOCK_TRUST_CF_CONNECTING_IP: "false" }, headers("198.51.100.8"))).toBe(
      UNTRUSTED_CLIENT,
    );
    expect(clientAddress({ AIRLOCK_TRUST_CF_CONNECTING_IP: "true" }, new Headers())).toBe(UNTRUSTED_CLIENT);
  });

  it("keys IPv6 clients by /64, however the address is written", () => {
    const env6 = { AIRLOCK_TRUST_CF_CONNECTING_IP: "true" };
    const a = clientAddress(env6, headers("2001:0db8:0001:0002:0000:0000:0000:0001"));
    expect(a).toBe("2001:db8:1:2::/64");
    expect(clientAddress(env6, headers("2001:db8:1:2::abcd"))).toBe(a);
    expect(clientAddress(env6, headers("2001:db8::1"))).toBe("2001:db8:0:0::/64");
  });
});

describe("a code binds only the kind of device its role fits", () => {
  it("an approver code refuses a companion (409) and stays usable for the phone", async () => {
    const res = await api("/v1/recovery/pairing-code", {
      method: "POST",
      json: { recovery_code: await recoveryCode(), role: "approver" },
    });
    const { code } = (await res.json()) as { code: string };
    const wrongKind = await bind(code, "203.0.113.130", "companion");
    expect(wrongKind.status).toBe(409);
    expect((await errorOf(wrongKind)).message).toMatch(/phone or browser/);
    expect((await bind(code, "203.0.113.130", "browser")).status).toBe(201);
  });

  it("a companion code refuses a browser (409)", async () => {
    const code = await ownerCode("companion");
    const res = await bind(code, "203.0.113.131", "browser");
    expect(res.status).toBe(409);
    expect((await bind(code, "203.0.113.131", "companion")).status).toBe(201);
  });

  it("the admin token mints companion codes only", async () => {
    const res = await api("/v1/admin/pairing-code", { method: "POST", headers: { authorization: ADMIN } });
    expect(await res.json()).toMatchObject({ role: "companion" });
  });
});
