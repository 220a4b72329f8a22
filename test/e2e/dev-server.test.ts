// `npm run dev` end to end: real wrangler dev serves /healthz and prints a pairing code that binds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Edge, startEdge } from "./support/edge.ts";

let edge: Edge;
beforeAll(async () => {
  edge = await startEdge();
});
afterAll(async () => {
  await edge?.stop();
});

describe("npm run dev", () => {
  it("serves /healthz", async () => {
    const res = await fetch(`${edge.base}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it("prints the recovery code, a phone pairing URL (approver) and a companion code, each binding once", async () => {
    expect(edge.output()).toContain(`${edge.base}/pair?code=${edge.firstCode}`);
    expect(edge.recoveryCode).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){5}$/);
    const bind = (code: string, kind: string) =>
      fetch(`${edge.base}/v1/pairing/bind`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code, device_name: "e2e", kind }),
      });
    const phone = await bind(edge.firstCode, "browser");
    expect(phone.status).toBe(201);
    expect(await phone.json()).toMatchObject({ role: "approver" });
    const laptop = await bind(edge.companionCode, "companion");
    expect(laptop.status).toBe(201);
    const { token } = (await laptop.json()) as { token: string };
    const devices = await fetch(`${edge.base}/v1/devices`, { headers: { authorization: `Bearer ${token}` } });
    expect(devices.status).toBe(200);
    expect((await bind(edge.companionCode, "companion")).status).toBe(401);
  });

  it("never prints the admin token or a device token", async () => {
    const { token } = await edge.pairDevice();
    expect(edge.output()).not.toContain(edge.adminToken);
    expect(edge.output()).not.toContain(token);
  });
});
