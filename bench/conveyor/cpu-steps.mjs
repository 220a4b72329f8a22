#!/usr/bin/env node
// The CPU each step of a proposal costs the local edge, measured from /proc (user + system time of the workerd
// processes, and of wrangler's Node process), so the figure holds on a loaded machine where wall-clock rates do
// not. One local `wrangler dev` (the test entry); N requests of each kind, 10 in flight: /healthz (the floor of
// any request), an authenticated GET (the floor plus the bearer lookup), then a proposal's three requests:
// propose, approve (which runs it), execute (joins the finished run). Prints one JSON object on stdout.
// Used by cpu-compare.mjs, which runs it in two trees (before and after) taking turns.
import { randomUUID } from "node:crypto";
import { egressEdge } from "../lib/egress-edge.mjs";
import { pool } from "../lib/users.mjs";
import { cpuMs, workerdPids } from "../lib/workerd-cpu.mjs";

const N = Number(process.env.AIRLOCK_BENCH_STEP_REQUESTS ?? 150);
const log = (line) => process.stderr.write(`${line}\n`);

const local = await egressEdge({ name: "cpu" });
const { servers } = local;
const edge = await local.start();

try {
  const { token } = await edge.pairDevice("browser", "cpu owner");
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const ok = async (res) => {
    const body = await res.json();
    if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const propose = async () =>
    (
      await ok(
        await fetch(`${edge.base}/v1/proposals`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            tool: "http.request",
            identity: "bot",
            idempotency_key: `cpu-${randomUUID()}`,
            justification: "bench",
            args: { method: "POST", url: `http://127.0.0.1:${servers.targetPort}/effect` },
          }),
        }),
      )
    ).proposal;
  const workerd = workerdPids();
  const node = workerdPids(process.pid, "node").concat(workerdPids(process.pid, "MainThread"));
  /** CPU ms per request of each process group while `fn` runs N times, 10 in flight. */
  const measure = async (name, fn) => {
    const w0 = cpuMs(workerd);
    const n0 = cpuMs(node);
    const out = await pool(
      Array.from({ length: N }, (_, i) => () => fn(i)),
      10,
    );
    const step = {
      workerd_ms: +((cpuMs(workerd) - w0) / N).toFixed(2),
      wrangler_node_ms: +((cpuMs(node) - n0) / N).toFixed(2),
    };
    log(`${name.padEnd(10)} ${JSON.stringify(step)}`);
    return { step, out };
  };
  await pool(
    Array.from({ length: 30 }, () => propose),
    5,
  ); // warm-up
  const steps = {};
  steps.healthz = (await measure("healthz", async () => (await fetch(`${edge.base}/healthz`)).text())).step;
  steps.auth_get = (
    await measure("auth_get", async () => (await fetch(`${edge.base}/v1/devices`, { headers })).text())
  ).step;
  const proposed = await measure("propose", propose);
  steps.propose = proposed.step;
  const ids = proposed.out.map((p) => p.id);
  steps.approve = (
    await measure("approve", async (i) =>
      ok(
        await fetch(`${edge.base}/v1/approvals/${ids[i]}/approve`, {
          method: "POST",
          headers,
          body: JSON.stringify({ scope: "once" }),
        }),
      ),
    )
  ).step;
  steps.execute = (
    await measure("execute", async (i) => {
      const done = await ok(
        await fetch(`${edge.base}/v1/proposals/${ids[i]}/execute`, { method: "POST", headers }),
      );
      if (done.proposal.state !== "EXECUTED") throw new Error(`not executed: ${done.proposal.state}`);
    })
  ).step;
  const sum = (k) => +(steps.propose[k] + steps.approve[k] + steps.execute[k]).toFixed(2);
  process.stdout.write(
    `${JSON.stringify({ requests_per_step: N, steps, per_proposal: { workerd_ms: sum("workerd_ms"), wrangler_node_ms: sum("wrangler_node_ms") } })}\n`,
  );
} finally {
  await edge.stop();
  await servers.close();
}
