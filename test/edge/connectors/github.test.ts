// GitHub tools against the GitHub REST contract server: reads untrusted, writes as the identity's login,
// a merge is HIGH and refused when the head moved; 403 scope names the scope.
import { describe, expect, it } from "vitest";
import { connectorRig, contract, resultOf, uniqueAccount } from "./support.ts";

const repo = () => `acme/app-${crypto.randomUUID().slice(0, 6)}`;

describe("github", () => {
  it("reads an issue with comments (untrusted), comments on it as the identity's login", async () => {
    const rig = await connectorRig();
    const login = uniqueAccount("octo").split("@")[0] ?? "octo";
    rig.connections.connect(rig.userId, "github", "bot", login);
    const r = repo();
    await contract.issue({
      repo: r,
      number: 7,
      title: "Crash on start",
      body: "Steps: run it.",
      state: "open",
      author: "someone",
      comments: [{ id: 1, body: "me too", author: "other" }],
    });
    const read = await rig.run("github.issue.read", { repo: r, number: 7 }, "bot");
    expect(resultOf(read)).toMatchObject({
      untrusted: true,
      title: "Crash on start",
      comments: [expect.objectContaining({ body: "me too" })],
    });
    const commented = await rig.run(
      "github.issue.comment",
      { repo: r, number: 7, body: "Looking into it." },
      "bot",
    );
    expect(commented.status).toBe("executed");
    expect((await contract.stats(login)).comments).toEqual([
      { account: login, repo: r, number: 7, body: "Looking into it." },
    ]);
  });

  it("opens a pull request, reads it, merges it once; a merge against a moved head is refused (409)", async () => {
    const rig = await connectorRig();
    const login = uniqueAccount("octo").split("@")[0] ?? "octo";
    rig.connections.connect(rig.userId, "github", "user", login);
    const r = repo();
    const opened = await rig.run("github.pr.create", {
      repo: r,
      title: "Fix crash",
      head: "fix/crash",
      base: "main",
    });
    const number = Number(resultOf(opened).number);
    const pr = await rig.run("github.pr.read", { repo: r, number });
    expect(resultOf(pr)).toMatchObject({ untrusted: true, head: "fix/crash", base: "main", mergeable: true });
    const stale = await rig.run("github.pr.merge", { repo: r, number, sha: "c".repeat(40) });
    expect(stale.failure?.message).toContain("head moved");
    const merged = await rig.run("github.pr.merge", { repo: r, number, sha: "a".repeat(40) });
    expect(merged.status).toBe("executed");
    const twice = await rig.run("github.pr.merge", { repo: r, number, sha: "a".repeat(40) });
    expect(twice.failure?.message).toContain("not mergeable");
    expect((await contract.stats(login)).merges).toHaveLength(1);
    expect(rig.registry.get("github.pr.merge")?.riskClass({})).toBe("HIGH");
  });

  it("403 for a missing scope names it; 404 says not found", async () => {
    const rig = await connectorRig();
    const login = uniqueAccount("octo").split("@")[0] ?? "octo";
    rig.connections.connect(rig.userId, "github", "user", login);
    await contract.fault({ api: "github", account: login, status: 403, kind: "scope" });
    const r = repo();
    await contract.issue({ repo: r, number: 1, title: "t", body: "b", state: "open", author: "x" });
    const denied = await rig.run("github.issue.comment", { repo: r, number: 1, body: "hi" });
    expect(denied.failure?.message).toContain("lacks the scope public_repo");
    const missing = await rig.run("github.issue.read", { repo: r, number: 99 });
    expect(missing.failure?.message).toContain("Not found at GitHub (HTTP 404)");
  });

  it("a rate-limit 403 with Retry-After waits and retries", async () => {
    const rig = await connectorRig();
    const login = uniqueAccount("octo").split("@")[0] ?? "octo";
    rig.connections.connect(rig.userId, "github", "user", login);
    const r = repo();
    await contract.issue({ repo: r, number: 1, title: "t", body: "b", state: "open", author: "x" });
    await contract.fault({ api: "github", account: login, status: 403, kind: "rate", retryAfter: 1 });
    expect((await rig.run("github.issue.read", { repo: r, number: 1 })).status).toBe("executed");
    expect(rig.waits).toEqual([1000]);
  });
});
