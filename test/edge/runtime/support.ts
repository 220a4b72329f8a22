// Helpers for the hosted runtime's tests: the scripted model server, jobs through the API, and waiting
// for a turn's Workflow instance to finish (introspected, never slept on).
import { introspectWorkflow } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import type { JobView } from "../../../src/protocol/runtime.ts";
import { plannerClient } from "../../support/planner-client.ts";
import type { PlannerStep, ScriptMode } from "../../support/planner-server.ts";
import { device } from "../approvals-helpers.ts";
import { servers } from "../conveyor/support.ts";
import { api } from "../helpers.ts";

export const planner = plannerClient(inject("planner").url);
export const PAGE = `http://127.0.0.1:${servers.targetPort}/page`;
export const EFFECT = `http://127.0.0.1:${servers.targetPort}/effect`;

export type Device = Awaited<ReturnType<typeof device>>;
export { device };

/** A fresh script id, registered with its steps; put `marker` in the instructions. */
export async function script(
  steps: PlannerStep[],
  mode: ScriptMode = "sequence",
): Promise<{ id: string; marker: string }> {
  const id = `s${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await planner.script(id, steps, mode);
  return { id, marker: `[script:${id}]` };
}

export async function jobOf(d: Device, id: string): Promise<JobView> {
  const res = await d.get(`/v1/jobs/${id}`);
  if (res.status !== 200) throw new Error(`GET job ${id}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { job: JobView }).job;
}

/**
 * Runs `start` (which creates turns) with every new turn instance introspected; answers when all of them
 * finished. `modify` can change their behaviour (e.g. disable sleeps).
 */
export async function runTurns<T>(
  start: () => Promise<T>,
  opts: { expect?: number } = {},
): Promise<{ value: T; instances: number }> {
  await using introspector = await introspectWorkflow(env.TURN_WORKFLOW);
  await introspector.modifyAll(async (m) => {
    await m.disableSleeps();
    await m.disableRetryDelays();
  });
  const value = await start();
  const instances = await introspector.get();
  if (opts.expect !== undefined && instances.length !== opts.expect)
    throw new Error(`expected ${opts.expect} turn instances, got ${instances.length}`);
  for (const instance of instances) await instance.waitForStatus("complete");
  return { value, instances: instances.length };
}

export async function startJob(
  d: Device,
  instructions: string,
  extra: Record<string, unknown> = {},
): Promise<JobView> {
  const res = await d.post("/v1/jobs", { instructions, ...extra });
  if (res.status !== 201) throw new Error(`POST job: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { job: JobView }).job;
}

/** How many requests reached the target server on this path prefix (tool calls actually executed). */
export async function targetHits(prefix: string): Promise<number> {
  const stats = (await (await fetch(`${servers.controlUrl}/stats`)).json()) as { paths: string[] };
  return stats.paths.filter((p) => p.startsWith(prefix)).length;
}

export function patch(d: Device, path: string, json: unknown): Promise<Response> {
  return api(path, { method: "PATCH", headers: d.approver.headers, json });
}

export { fetchCall, proposeCall } from "../../support/plan-steps.ts";
