// The error envelope for every case of the HTTP surface.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/edge/app.ts";
import { api, bearer, errorOf, pair } from "./helpers.ts";

describe("error envelope", () => {
  it("404 for an unknown route", async () => {
    const res = await api("/v1/nope");
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toMatchObject({ code: "not_found" });
  });

  it("405 with Allow for a known route and wrong method", async () => {
    const res = await api("/v1/pairing/bind", { method: "GET" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await errorOf(res)).toMatchObject({ code: "method_not_allowed" });
  });

  it("405 for a parameterised route", async () => {
    const res = await api("/v1/devices/dev_abc/revoke", { method: "DELETE" });
    expect(res.status).toBe(405);
  });

  it("400 for malformed JSON", async () => {
    const res = await api("/v1/pairing/bind", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: "invalid_json" });
  });

  it("400 naming each bad field", async () => {
    const res = await api("/v1/pairing/bind", {
      method: "POST",
      json: { code: "12", kind: "toaster", extra: 1 },
    });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe("validation_failed");
    const paths = (error.details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(["code", "device_name", "kind"]));
    expect(error.message).toContain("code");
  });

  it("413 for a body over 256 KiB", async () => {
    const res = await api("/v1/pairing/bind", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: "x".repeat(300 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toMatchObject({ code: "payload_too_large" });
  });

  it("401 without credentials, with WWW-Authenticate", async () => {
    const res = await api("/v1/devices");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
    expect(await errorOf(res)).toMatchObject({ code: "unauthenticated" });
  });

  it("401 for a malformed or unknown token", async () => {
    for (const token of ["nope", "alk_AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"]) {
      const res = await api("/v1/devices", { headers: bearer(token) });
      expect(res.status).toBe(401);
    }
  });

  it("403 for a cookie-authenticated write from a foreign origin", async () => {
    const device = await pair("browser");
    const res = await api("/v1/pairing/code", {
      method: "POST",
      headers: { cookie: `airlock_session=${device.token}`, origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("403 for a cookie-authenticated write with no origin at all", async () => {
    const device = await pair("browser");
    const res = await api("/v1/pairing/code", {
      method: "POST",
      headers: { cookie: `airlock_session=${device.token}` },
    });
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({ code: "forbidden" });
  });

  it("500 with a request id and no stack for an unexpected failure", async () => {
    const app = createApp();
    app.get("/v1/test/boom", () => {
      throw new Error("secret internals at line 42");
    });
    const res = await app.fetch(new Request("https://airlock.test/v1/test/boom"), env);
    expect(res.status).toBe(500);
    const error = await errorOf(res);
    expect(error.code).toBe("internal");
    const requestId = res.headers.get("x-request-id");
    expect(error.details).toEqual({ request_id: requestId });
    expect(JSON.stringify(error)).not.toContain("secret internals");
    expect(JSON.stringify(error)).not.toContain("at ");
  });

  it("400 for an invalid path parameter", async () => {
    const device = await pair("browser");
    const res = await api("/v1/devices/not-a-device/revoke", {
      method: "POST",
      headers: bearer(device.token),
    });
    expect(res.status).toBe(400);
    expect(((await errorOf(res)).details as { path: string }[])[0]?.path).toBe("id");
  });
});

describe("CORS", () => {
  it("answers a preflight from a listed dashboard origin", async () => {
    const res = await api("/v1/devices", {
      method: "OPTIONS",
      headers: { origin: "https://dash.example.test", "access-control-request-method": "GET" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://dash.example.test");
    expect(res.headers.get("access-control-allow-credentials")).toBe("true");
  });

  it("refuses an unlisted origin without CORS headers", async () => {
    const res = await api("/v1/devices", {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(await errorOf(res)).toMatchObject({ code: "forbidden" });
  });

  it("allows the Worker's own origin", async () => {
    const res = await api("/healthz", { headers: { origin: "https://airlock.test" } });
    expect(res.status).toBe(200);
  });
});

describe("headers on every response (hono's request-id and secure-headers)", () => {
  it("sets the security headers and no-store, on answers and on errors", async () => {
    for (const res of [await api("/healthz"), await api("/v1/devices"), await api("/v1/nope")]) {
      expect(res.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("x-request-id")).toMatch(/^[\w-]{8,}$/);
    }
  });

  it("keeps a well-formed incoming request id and replaces a malformed one", async () => {
    const kept = await api("/healthz", { headers: { "x-request-id": "trace-1234_abcd" } });
    expect(kept.headers.get("x-request-id")).toBe("trace-1234_abcd");
    for (const bad of ["has spaces in it", "x".repeat(65), "semi;colon-1234"]) {
      const res = await api("/healthz", { headers: { "x-request-id": bad } });
      expect(res.headers.get("x-request-id")).not.toBe(bad);
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("the 500's request id is the response's", async () => {
    const app = createApp();
    app.get("/v1/test/boom2", () => {
      throw new Error("boom");
    });
    const res = await app.fetch(
      new Request("https://airlock.test/v1/test/boom2", { headers: { "x-request-id": "incident-42-abcd" } }),
      env,
    );
    expect(res.headers.get("x-request-id")).toBe("incident-42-abcd");
    expect((await errorOf(res)).details).toEqual({ request_id: "incident-42-abcd" });
  });
});
