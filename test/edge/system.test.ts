import { describe, expect, it } from "vitest";
import { api } from "./helpers.ts";

describe("system routes", () => {
  it("serves /healthz with a request id and security headers", async () => {
    const res = await api("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("strict-transport-security")).toContain("max-age=");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("reports version and build id", async () => {
    const res = await api("/v1/version");
    const body = (await res.json()) as { version: string; build_id: string };
    expect(body.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(body.build_id).toBe("dev");
  });

  it("keeps a well-formed incoming request id", async () => {
    const res = await api("/healthz", { headers: { "x-request-id": "req-abcdef12" } });
    expect(res.headers.get("x-request-id")).toBe("req-abcdef12");
  });
});
