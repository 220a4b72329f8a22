// The scale benches' harness: one local `wrangler dev` with the counting entry (test/edge/scale-entry.ts), the
// egress test servers (conveyor target) and the scripted model server (hosted turns answer "Done."), users with
// an approver and a companion token each, the counts endpoint, and each unit of work as one function.
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import WebSocket from "ws";
import { startEdge } from "../../test/e2e/support/edge.ts";
import { startEgressServers } from "../../test/support/egress-servers.ts";
import { startPlannerServer } from "../../test/support/planner-server.ts";
import { benchUsers, pool } from "../lib/users.mjs";

export { pool };

/**
 * Where the local D1 and hub SQLite files live: in memory (/dev/shm) when the machine has it, so a run's writes
 * (hundreds of MB at 1,000 users) spare the shared disk. Measured no faster than disk here
 * (bench/scale/sim-state-root.json): the one workerd thread was waiting for a core, not for the disk.
 */
const STATE_ROOT = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();

/**
 * Starts the counted edge with `users` bench users (besides the owner; 0: none, and no wrangler run before it),
 * its state under `stateRoot` (default: in memory where the machine has it).
 */
export async function startScaleEdge(users, { stateRoot = STATE_ROOT } = {}) {
  const [servers, planner] = await Promise.all([startEgressServers(), startPlannerServer()]);
  const stateDir = mkdtempSync(join(stateRoot, "airlock-bench-scale-"));
  const pepper = randomBytes(32).toString("base64url");
  const people = benchUsers({ stateDir, pepper, count: users, prefix: "usr_scale" });
  // Bench users are written with `wrangler d1` before the edge starts (two more wrangler and workerd starts);
  // without them the edge's own start copies the migrated state.
  if (users > 0) people.create();
  const edge = await startEdge({
    stateDir,
    entry: "test/edge/scale-entry.ts",
    vars: {
      TOKEN_PEPPER: pepper,
      ADMIN_BOOTSTRAP_TOKEN: randomBytes(32).toString("base64url"),
      AIRLOCK_DOH_URL: servers.dohUrl,
      TEST_TARGET_PORT: String(servers.targetPort),
      AIRLOCK_MODEL_BASE_URL: `${planner.url}/v1`,
      AIRLOCK_MODEL_MODELS: "bench-model",
      AIRLOCK_MODEL_API_KEY: `sk-bench-${randomBytes(12).toString("hex")}`,
    },
  });
  const d1File = () => {
    const dir = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
    const name = readdirSync(dir).find((n) => n.endsWith(".sqlite") && n !== "metadata.sqlite");
    return join(dir, name);
  };
  let db;
  let boot;
  return {
    edge,
    pepper,
    servers,
    planner,
    people,
    target: `http://127.0.0.1:${servers.targetPort}`,
    /** Read-only look at the local D1 file (outside the counted edge, so it costs the counts nothing). */
    sql(text, ...params) {
      db ??= new DatabaseSync(d1File(), { readOnly: true });
      return db.prepare(text).all(...params);
    },
    /** Bytes the local D1's tables and indexes use (SQLite's dbstat: pages less their unused space). */
    d1Bytes() {
      return this.sql("SELECT sum(pgsize - unused) AS b FROM dbstat")[0].b;
    },
    /**
     * Resets these users' hubs (test/edge/scale-entry.ts): their next request constructs them again, cold. Counted
     * into the open window: read the counts with a reset after this.
     */
    async coldHubs(users) {
      for (let from = 0; from < users.length; from += 100) {
        const res = await fetch(`${edge.base}/v1/test/scale-cold`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ user_ids: users.slice(from, from + 100).map((u) => u.userId) }),
        });
        await json(res);
      }
    },
    /** The counts since the last reset (and a new window when `reset`); throws if workerd reloaded meanwhile. */
    async counts(reset = true) {
      const res = await fetch(`${edge.base}/v1/test/scale-counts${reset ? "?reset=1" : ""}`);
      const counts = await res.json();
      if (boot !== undefined && counts.boot !== boot)
        throw new Error("workerd reloaded during the window (a source file changed?): counts restarted");
      boot = counts.boot;
      return counts;
    },
    async stop() {
      db?.close();
      await edge.stop();
      await planner.close();
      await servers.close?.();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

async function json(res) {
  const body = await res.json();
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}

let seq = 0;
const agent = { id: "scale-agent", name: "Scale Agent", version: "1.0.0" };
const readCall = (path) => ({
  call_id: `c-${Date.now()}-${++seq}-${randomBytes(3).toString("hex")}`,
  session_id: "scale-session",
  agent,
  tool: "read",
  input: { path },
  cwd: "/work/repo",
});

/** One simulated person: an approver (the phone) and a companion, and each unit of work they cause. */
export class SimUser {
  constructor(base, phoneToken, target, index) {
    this.base = base;
    this.phone = phoneToken;
    this.target = target;
    this.index = index;
  }

  async request(token, method, path, body) {
    // The local dev proxy drops a connection now and then on a loaded machine; one retry.
    for (let attempt = 0; ; attempt++) {
      try {
        return await fetch(`${this.base}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (error) {
        if (attempt >= 2 || !(error instanceof TypeError)) throw error;
      }
    }
  }
  asPhone(method, path, body) {
    return this.request(this.phone, method, path, body).then(json);
  }
  asCompanion(method, path, body) {
    return this.request(this.companion, method, path, body).then(json);
  }

  /** Pairs the companion and saves the grant the decisions hit (setup, not counted). */
  async setUp() {
    const { code } = await this.asPhone("POST", "/v1/pairing/code", { role: "companion" });
    const bound = await json(
      await fetch(`${this.base}/v1/pairing/bind`, {
        method: "POST",
        headers: { "content-type": "application/json", "cf-connecting-ip": `scale-companion-${this.index}` },
        body: JSON.stringify({ code, device_name: `scale companion ${this.index}`, kind: "companion" }),
      }),
    );
    this.companion = bound.token;
    const first = await this.asCompanion(
      "POST",
      "/v1/decisions?wait=false",
      readCall("/work/repo/src/seed.ts"),
    );
    await this.asPhone("POST", `/v1/approvals/${first.prompt_id}/approve`, {
      scope: "always",
      pattern: "/work/repo/src/**",
    });
  }

  /** A decision answered by a saved grant (the companion asks the edge; REST, so its bearer is checked too). */
  async grantDecision() {
    const answer = await this.asCompanion("POST", "/v1/decisions", readCall(`/work/repo/src/f${++seq}.ts`));
    if (answer.decision !== "allow") throw new Error(`grant decision: ${JSON.stringify(answer)}`);
  }

  /** A prompt answered by the person: the call asks, the phone approves once, the companion reads the answer. */
  async promptAnswered() {
    const call = readCall(`/work/repo/d${++seq}/${randomUUID()}.md`);
    const asked = await this.asCompanion("POST", "/v1/decisions?wait=false", call);
    if (!asked.prompt_id) throw new Error(`expected a prompt: ${JSON.stringify(asked)}`);
    await this.asPhone("POST", `/v1/approvals/${asked.prompt_id}/approve`, { scope: "once" });
    const answer = await this.asCompanion("GET", `/v1/decisions/${encodeURIComponent(call.call_id)}`);
    if (answer.decision !== "allow") throw new Error(`prompt decision: ${JSON.stringify(answer)}`);
  }

  /** A proposal through execution: proposed, approved by the person, executed against the target server. */
  async proposal() {
    const { proposal } = await this.asPhone("POST", "/v1/proposals", {
      tool: "http.request",
      identity: "bot",
      idempotency_key: `scale-${randomUUID()}`,
      justification: "scale bench",
      args: { method: "POST", url: `${this.target}/effect` },
    });
    await this.asPhone("POST", `/v1/approvals/${proposal.id}/approve`, { scope: "once" });
    const done = await this.asPhone("POST", `/v1/proposals/${proposal.id}/execute`);
    if (done.proposal.state !== "EXECUTED") throw new Error(`proposal ${done.proposal.state}`);
  }

  /** A hosted turn: a job posted by the person; the model answers "Done." (finished when its turn is). */
  async job() {
    const { job } = await this.asPhone("POST", "/v1/jobs", { instructions: "Say done." });
    return job.id;
  }

  /** A one-shot schedule due `inMs` from now (its firing is the unit; the turn it starts is a hosted turn). */
  async schedule(inMs) {
    const made = await this.asPhone("POST", "/v1/schedules", {
      name: `scale ${++seq}`,
      kind: "at",
      at: new Date(Date.now() + inMs).toISOString(),
      task: { instructions: "Say done." },
    });
    return made.id;
  }

  /**
   * A dashboard page load: the device check, the approver socket's welcome, the resolved-prompt list. `drop`
   * ends the page as a closed tab does (the socket cut, no close handshake): the local dev proxy holds a polite
   * close for ~10 s, which bounds a many-user run by waiting, not by work.
   */
  async dashboardLoad({ drop = false } = {}) {
    await this.asPhone("GET", "/v1/devices");
    const ws = new WebSocket(`${this.base.replace("http", "ws")}/v1/connect?role=approver`, {
      headers: { authorization: `Bearer ${this.phone}` },
    });
    await new Promise((resolve, reject) => {
      ws.once("error", reject);
      ws.on("message", (data) => {
        if (JSON.parse(String(data)).type === "welcome") resolve();
      });
      ws.once("open", () => ws.send(JSON.stringify({ type: "hello", client: { name: "scale-dashboard" } })));
    });
    await this.asPhone("GET", "/v1/approvals?status=resolved&limit=50");
    await new Promise((resolve) => {
      ws.once("close", resolve);
      if (drop) ws.terminate();
      else ws.close();
    });
  }
}

/** A device token and the HMAC the edge stores for it (src/edge/auth/tokens.ts: `alk_<id>.<secret>`). */
function deviceToken(pepper) {
  const id = randomBytes(12).toString("base64url");
  const secret = randomBytes(32).toString("base64url");
  return {
    token: `alk_${id}.${secret}`,
    token_id: id,
    secret_hash: createHmac("sha256", pepper).update(secret).digest("hex"),
  };
}

/**
 * `count` users created in bulk through the counting entry's seed route (not counted): each with an approver and
 * a companion token, the saved grant, and `history` rows (audit, proposals, jobs) a user of some months has.
 */
export async function seededUsers(scale, count, prefix, history) {
  const users = [];
  for (let from = 0; from < count; from += 100) {
    const batch = Array.from({ length: Math.min(100, count - from) }, (_, k) => ({
      user_id: `${prefix}${String(from + k).padStart(6, "0")}`,
      phone: deviceToken(scale.pepper),
      companion: deviceToken(scale.pepper),
    }));
    await json(
      await fetch(`${scale.edge.base}/v1/test/scale-seed`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          users: batch.map(({ user_id, phone, companion }) => ({ user_id, phone, companion })),
          ...history,
        }),
      }),
    );
    for (const u of batch) {
      const user = new SimUser(scale.edge.base, u.phone.token, scale.target, users.length);
      user.companion = u.companion.token;
      user.userId = u.user_id;
      users.push(user);
    }
  }
  return users;
}

/** The bench users (approver tokens bound over HTTP, companions paired, grants saved). */
export async function simUsers(scale, count) {
  const tokens = await scale.people.tokens(scale.edge.base, pool);
  const users = tokens.slice(0, count).map((t, i) => new SimUser(scale.edge.base, t, scale.target, i));
  await pool(
    users.map((u) => () => u.setUp()),
    10,
  );
  return users;
}

/** Waits until every turn in D1 has finished and at least `jobs` jobs exist (read from the file, not the edge). */
export async function turnsSettled(scale, jobs, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [made] = scale.sql("SELECT count(*) AS n FROM jobs");
    const [open] = scale.sql("SELECT count(*) AS n FROM turns WHERE finished_at IS NULL");
    if (made.n >= jobs && open.n === 0) return;
    if (Date.now() > deadline)
      throw new Error(`turns not settled: ${made.n}/${jobs} jobs, ${open.n} turns open`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A counts window divided by `n` units (3 decimals), with totals across origins beside each split. */
export function perUnit(c, n) {
  const r = (x) => Math.round((x / n) * 1000) / 1000;
  const d1 = {};
  const total = { round_trips: 0, statements: 0, rows_read: 0, rows_written: 0 };
  for (const [origin, v] of Object.entries(c.d1)) {
    d1[origin] = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, r(x)]));
    for (const k of Object.keys(total)) total[k] += v[k];
  }
  d1.total = Object.fromEntries(Object.entries(total).map(([k, x]) => [k, r(x)]));
  const hubRequests = Object.values(c.hub_requests).reduce((a, b) => a + b, 0);
  return {
    d1,
    hub_requests: r(hubRequests),
    hub_alarms: r(c.hub_alarms),
    hub_alarm_sets: r(c.hub_alarm_sets),
    hub_socket_messages: r(c.hub_socket_messages),
    d1_raw_statements: r(c.d1_raw_statements),
    hub_sql: Object.fromEntries(Object.entries(c.hub_sql).map(([k, x]) => [k, r(x)])),
    hub_starts: r(c.hub_starts),
    hub_start_sql: Object.fromEntries(Object.entries(c.hub_start_sql).map(([k, x]) => [k, r(x)])),
    hub_start_alarm_sets: r(c.hub_start_alarm_sets),
    workflow: Object.fromEntries(Object.entries(c.workflow).map(([k, x]) => [k, r(x)])),
    subrequests: r(c.subrequests),
  };
}
