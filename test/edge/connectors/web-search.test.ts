// web.search against the Brave Search contract server: results untrusted, the key as a Worker secret.
import { describe, expect, it } from "vitest";
import { connectorRig, contract, resultOf } from "./support.ts";

describe("web.search", () => {
  it("answers titles, URLs and plain-text snippets, labelled untrusted", async () => {
    const rig = await connectorRig();
    const ran = await rig.run("web.search", { query: "workerd sockets", count: 2 }, "bot");
    expect(ran.status).toBe("executed");
    const r = resultOf(ran);
    expect(r.untrusted).toBe(true);
    expect(r.results).toEqual([
      {
        title: "workerd sockets — result 1",
        url: "https://example.com/workerd-sockets/1",
        description: "All about workerd sockets, part 1.",
      },
      {
        title: "workerd sockets — result 2",
        url: "https://example.com/workerd-sockets/2",
        description: "All about workerd sockets, part 2.",
      },
    ]);
  });

  it("without a key: not configured, and says which secret to set", async () => {
    const rig = await connectorRig({ braveKey: null });
    const ran = await rig.run("web.search", { query: "x" }, "bot");
    expect(ran.failure?.class).toBe("tool_unavailable");
    expect(ran.failure?.remediation).toContain("BRAVE_SEARCH_API_KEY");
  });

  it("a refused key fails without a retry; 429 waits as told", async () => {
    const bad = await connectorRig({ braveKey: "wrong-key" });
    const refused = await bad.run("web.search", { query: "x" }, "bot");
    expect(refused.failure?.message).toContain("refused the key");
    const rig = await connectorRig();
    const query = `rate-${crypto.randomUUID().slice(0, 8)}`;
    await contract.fault({ api: "brave", pathIncludes: query, status: 429, retryAfter: 1 });
    expect((await rig.run("web.search", { query }, "bot")).status).toBe("executed");
    expect(rig.waits).toEqual([1000]);
  });
});
