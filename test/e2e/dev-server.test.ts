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

  it("prints a pairing URL and a code that binds once", async () => {
    expect(edge.output()).toContain(`${edge.base}/pair?code=${edge.firstCode}`);
    const bind = () =>
      fetch(`${edge.base}/v1/pairing/bind`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code: edge.firstCode, device_name: "e2e", kind: "companion" }),
      });
    const first = await bind();
    expect(first.status).toBe(201);
    const { token } = (await first.json()) as { token: string };
    const devices = await fetch(`${edge.base}/v1/devices`, { headers: { authorization: `Bearer ${token}` } });
    expect(devices.status).toBe(200);
    expect((await bind()).status).toBe(401);
  });

  it("never prints the admin token or a device token", async () => {
    const { token } = await edge.pairDevice();
    expect(edge.output()).not.toContain(edge.adminToken);
    expect(edge.output()).not.toContain(token);
  });
});
