// GET/POST /v1/futures/stats: companions report precognition counts, approvers (the dashboard) read them.
import { describe, expect, it } from "vitest";
import type { FuturesStats, FuturesStatsList } from "../../src/protocol/futures.ts";
import { api, bearer, errorOf, pair } from "./helpers.ts";

const STATS: FuturesStats = {
  enabled: true,
  injectionMode: "silent-futures",
  toolCache: true,
  commandFutures: true,
  generatedAt: "2026-11-23T10:00:00.000Z",
  workspaces: [
    {
      workspaceId: "0123456789abcdef",
      name: "airlock",
      files: 412,
      futures: 3,
      overflows: 0,
      classes: [
        { class: "read", warms: 4, hits: 3, misses: { no_future: 1 }, staleRejections: 0, savedMs: 12 },
        {
          class: "bash:npm test",
          warms: 1,
          hits: 1,
          misses: { stale: 2 },
          staleRejections: 2,
          savedMs: 5210,
        },
      ],
    },
  ],
};

describe("/v1/futures/stats", () => {
  it("a companion's report is what the person's dashboard reads back, per device", async () => {
    const companion = await pair("companion", "laptop");
    const browser = await pair("browser", "phone");
    const posted = await api("/v1/futures/stats", {
      method: "POST",
      headers: bearer(companion.token),
      json: STATS,
    });
    expect(posted.status).toBe(202);
    const res = await api("/v1/futures/stats", { headers: bearer(browser.token) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as FuturesStatsList;
    const mine = body.devices.find((d) => d.deviceId === companion.deviceId);
    expect(mine?.stats).toEqual(STATS);
  });

  it("only an approver reads them: a companion's token gets a 403", async () => {
    const companion = await pair("companion");
    const read = await api("/v1/futures/stats", { headers: bearer(companion.token) });
    expect(read.status).toBe(403);
    expect((await errorOf(read)).code).toBe("forbidden");
  });

  it("a malformed report is a 400 and changes nothing", async () => {
    const companion = await pair("companion");
    const browser = await pair("browser");
    const bad = await api("/v1/futures/stats", {
      method: "POST",
      headers: bearer(companion.token),
      json: { ...STATS, workspaces: [{ ...STATS.workspaces[0], contents: "file text" }] },
    });
    expect(bad.status).toBe(400);
    const body = (await (
      await api("/v1/futures/stats", { headers: bearer(browser.token) })
    ).json()) as FuturesStatsList;
    expect(body.devices.find((d) => d.deviceId === companion.deviceId)).toBeUndefined();
  });

  it("needs a token", async () => {
    expect((await api("/v1/futures/stats")).status).toBe(401);
  });
});
