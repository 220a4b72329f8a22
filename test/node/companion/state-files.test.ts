// The companion's files: grant matching, the call journal and the audit queue survive restarts and failures.
import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EdgeSync } from "../../../src/companion/daemon/edge-sync.ts";
import { Journal } from "../../../src/companion/daemon/journal.ts";
import {
  auditQueuePath,
  enqueueAudit,
  flushAudit,
  queuedAuditCount,
} from "../../../src/companion/deciding/audit-queue.ts";
import {
  readGrantCache,
  ruleOfGrant,
  SessionGrants,
  writeGrantCache,
} from "../../../src/companion/deciding/grants.ts";
import { type AuditEvent, Grant } from "../../../src/companion/edge/client.ts";
import { commandServer, loadCredentials, saveCredentials } from "../../../src/companion/edge/credentials.ts";

let dir: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "airlock-state-"));
  env = { HOME: dir, AIRLOCK_HOME: join(dir, ".airlock") };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("saved grants as matcher rules", () => {
  const grant = (g: Partial<Grant>): Grant => ({
    id: "g",
    agent_id: "claude-code",
    capability: "exec",
    match: "exact",
    scope_pattern: "make build",
    scope_hash: null,
    version_range: null,
    effect: "allow",
    ...g,
  });

  it("a grant from GET /v1/grants/rules keeps its match kind, hash and version range; legacy when the edge is older", () => {
    expect(ruleOfGrant(grant({ scope_hash: "ab", version_range: "~2.1.0" }))).toEqual({
      id: "g",
      agentId: "claude-code",
      capability: "exec",
      match: "exact",
      pattern: "make build",
      scopeHash: "ab",
      versionRange: "~2.1.0",
      effect: "allow",
    });
    const old = Grant.parse({
      ...grant({ id: "o", scope_pattern: "git *" }),
      match: undefined,
      scope_hash: undefined,
    });
    expect(ruleOfGrant(old)).toMatchObject({ match: "legacy", scopeHash: null, versionRange: null });
  });

  it("the grant cache round-trips and an unreadable cache is empty", () => {
    writeGrantCache([grant({})], env);
    expect(readGrantCache(env)).toHaveLength(1);
    writeFileSync(join(dir, ".airlock", "state", "grants.json"), "{nope");
    expect(readGrantCache(env)).toEqual([]);
  });

  it("a revocation pushed by the edge drops the saved grant and the session rule before the next call", () => {
    writeGrantCache([grant({ id: "grt_keep" }), grant({ id: "grt_gone", scope_pattern: "make" })], env);
    const sessions = new SessionGrants();
    const rule = {
      capability: "read",
      match: "exact",
      pattern: "/a",
      scope_hash: "h",
      version_range: null,
      effect: "allow",
    } as const;
    sessions.add("s1", "claude-code", [rule, { ...rule, pattern: "/b", scope_hash: "h2" }]);
    const sync = new EdgeSync(env, () => undefined, sessions);
    expect(sync.rules.map((r) => r.id)).toEqual(["grt_keep", "grt_gone"]);
    sync.revoked(["grt_gone", "sg_x"], [{ session_id: "s1", agent_id: "claude-code", rule }]);
    expect(sync.rules.map((r) => r.id)).toEqual(["grt_keep"]);
    expect(readGrantCache(env).map((g) => g.id)).toEqual(["grt_keep"]);
    expect(sessions.rules("s1", "claude-code").map((r) => r.pattern)).toEqual(["/b"]);
  });
});

describe("credentials", () => {
  it("are written 0600 in a 0700 directory and read back; AIRLOCK_SERVER overrides the server", async () => {
    const { statSync } = await import("node:fs");
    const path = saveCredentials(
      { server: "http://127.0.0.1:1/", token: "alk_a.b", device_id: "d", user_id: "u" },
      env,
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, ".airlock")).mode & 0o777).toBe(0o700);
    const loaded = loadCredentials({ ...env, AIRLOCK_SERVER: "https://edge.example" });
    expect(loaded.ok && loaded.credentials.server).toBe("https://edge.example");
  });

  it("a missing or broken file says how to fix it", () => {
    expect(loadCredentials(env)).toMatchObject({
      ok: false,
      missing: true,
      reason: expect.stringMatching(/airlock pair/),
    });
    saveCredentials({ server: "http://x", token: "alk_a.b", device_id: "d", user_id: "u" }, env);
    writeFileSync(join(dir, ".airlock", "credentials.json"), "{");
    expect(loadCredentials(env)).toMatchObject({ ok: false, missing: false });
  });

  it("name the edge a command asks: --server, else AIRLOCK_SERVER, else the paired one; none when unpaired", () => {
    const unpaired = loadCredentials(env);
    expect(commandServer(undefined, env, unpaired)).toBeUndefined();
    expect(commandServer(undefined, { ...env, AIRLOCK_SERVER: " https://tunnel.example/ " }, unpaired)).toBe(
      "https://tunnel.example",
    );
    saveCredentials(
      { server: "https://paired.example/", token: "alk_a.b", device_id: "d", user_id: "u" },
      env,
    );
    const paired = loadCredentials(env);
    expect(commandServer(undefined, env, paired)).toBe("https://paired.example");
    expect(commandServer("https://flag.example//", { ...env, AIRLOCK_SERVER: "https://x" }, paired)).toBe(
      "https://flag.example",
    );
  });
});

describe("journal", () => {
  const call = {
    callId: "cc:toolu_1",
    sessionId: "s",
    agent: { id: "claude-code", name: "Claude Code" },
    tool: "bash",
    input: { command: "make" },
    cwd: "/p",
    hasUI: true,
  };
  const request = {
    call_id: "cc:toolu_1",
    session_id: "s",
    agent: call.agent,
    tool: "bash",
    input: { command: "make" },
  };

  it("survives a restart and drops torn temp files", () => {
    const state = join(dir, "state");
    const j = new Journal(state);
    j.put({
      call,
      request,
      status: "pending",
      submittedAt: new Date().toISOString(),
      deadline: Date.now() + 1000,
    });
    writeFileSync(join(state, "calls", "x.json.123.tmp"), "{partial");
    const reloaded = new Journal(state);
    expect(reloaded.load().map((e) => e.call.callId)).toEqual(["cc:toolu_1"]);
    expect(reloaded.pending()).toHaveLength(1);
    expect(readdirSync(join(state, "calls")).some((f) => f.endsWith(".tmp"))).toBe(false);
    reloaded.put({
      ...reloaded.pending()[0]!,
      status: "decided",
      decision: { decision: "allow", reason: "ok", source: "user" },
      decidedAt: new Date().toISOString(),
    });
    expect(new Journal(state).load()[0]).toMatchObject({
      status: "decided",
      decision: { decision: "allow" },
    });
  });
});

describe("audit queue", () => {
  const event = (i: number): AuditEvent => ({
    call_id: `c${i}`,
    session_id: "s",
    agent_id: "claude-code",
    tool: "read",
    capability: "read",
    risk: "medium",
    action: "allow",
    layer: "user",
    rule: "reads",
    scope_hash: "a".repeat(64),
    source: "policy",
    at: new Date().toISOString(),
  });

  it("flushes everything when the edge takes it", async () => {
    enqueueAudit([event(1), event(2)], env);
    const sent: AuditEvent[] = [];
    expect(await flushAudit(async (b) => void sent.push(...b), env)).toBe(2);
    expect(sent.map((e) => e.call_id)).toEqual(["c1", "c2"]);
    expect(queuedAuditCount(env)).toBe(0);
  });

  it("keeps what was not sent when the edge fails, and drops torn lines", async () => {
    enqueueAudit([event(1)], env);
    appendFileSync(auditQueuePath(env), '{"call_id": "torn\n');
    enqueueAudit([event(2)], env);
    await expect(
      flushAudit(async () => {
        throw new Error("edge down");
      }, env),
    ).rejects.toThrow("edge down");
    expect(queuedAuditCount(env)).toBe(2);
  });
});
