// `npm run dev` end to end: real wrangler dev serves /healthz and prints a pairing code that binds.
import { networkInterfaces } from "node:os";
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

describe("npm run dev -- --lan", () => {
  let lan: Edge;
  beforeAll(async () => {
    lan = await startEdge({ args: ["--lan"] });
  });
  afterAll(async () => {
    await lan?.stop();
  });

  it("prints a link on the LAN address with a QR code of it, and still the first code", () => {
    const address = Object.values(networkInterfaces())
      .flat()
      .find((a) => a?.family === "IPv4" && !a.internal)?.address;
    expect(address).toBeDefined();
    const link = `http://${address}:${lan.port}/pair?code=${lan.firstCode}`;
    expect(lan.output()).toContain(`Pair your phone (it answers prompts): open ${link} or scan`);
    // The QR code: rows of half-block characters right after the link.
    const after = lan.output().slice(lan.output().indexOf(link));
    expect(after.split("\n").filter((l) => /^[█▀▄ ]{20,}$/.test(l)).length).toBeGreaterThan(10);
  });

  it("pairs a phone's browser over plain http: the cookie is not Secure and the LAN origin may write", async () => {
    const address = Object.values(networkInterfaces())
      .flat()
      .find((a) => a?.family === "IPv4" && !a.internal)?.address as string;
    const origin = `http://${address}:${lan.port}`;
    // Only loopback traffic here: the request goes to 127.0.0.1 carrying the LAN host and origin a phone would send.
    const bind = await fetch(`${lan.base}/v1/pairing/bind`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, host: `${address}:${lan.port}` },
      body: JSON.stringify({ code: lan.firstCode, device_name: "phone", kind: "browser" }),
    });
    expect(bind.status).toBe(201);
    const cookie = bind.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^airlock_session=/);
    expect(cookie).not.toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/HttpOnly/i);
    const session = cookie.split(";")[0] as string;
    const write = await fetch(`${lan.base}/v1/pairing/code`, {
      method: "POST",
      headers: {
        cookie: session,
        origin,
        host: `${address}:${lan.port}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ role: "companion" }),
    });
    expect(write.status).toBe(201);
    const foreign = await fetch(`${lan.base}/v1/pairing/code`, {
      method: "POST",
      headers: { cookie: session, origin: "http://evil.example", "content-type": "application/json" },
      body: JSON.stringify({ role: "companion" }),
    });
    expect(foreign.status).toBe(403);
  });
});

describe("the session cookie without --lan", () => {
  it("is Secure", async () => {
    const res = await fetch(`${edge.base}/v1/pairing/bind`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: await edge.newApproverCode(), device_name: "browser", kind: "browser" }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("set-cookie")).toMatch(/;\s*Secure/i);
  });
});
