// The test Worker entry with the scale counters (test/edge/scale-counts.ts) installed: the Worker's, every
// hub's and every turn's D1 binding, hub stubs and Workflow binding are counted, and GET /v1/test/scale-counts answers
// the counts (`?reset=1` starts a new window); POST /v1/test/scale-seed bulk-creates users with history
// (test/edge/scale-seed.ts); POST /v1/test/scale-cold resets the named users' hubs, so the simulator's next
// window starts with every one of them cold. For the scale benches under `wrangler dev` (bench/scale); the
// production entry never has this route.
import type { WorkflowEvent, WorkflowStep } from "cloudflare:workers";
import type { TurnParams } from "../../src/edge/runtime/workflow.ts";
import {
  countedEnv,
  countFetches,
  countHubAlarm,
  countHubSocketMessage,
  countHubSql,
  countHubStart,
  countingStep,
  evictHub,
  snapshot,
  trackHubAlarms,
} from "./scale-counts.ts";
import { seed } from "./scale-seed.ts";
import base, { TurnWorkflow as BaseTurnWorkflow, UserHub as BaseUserHub } from "./worker-entry.ts";

export * from "./worker-entry.ts";

countFetches();

/** Hubs reset at once by POST /v1/test/scale-cold. */
const COLD_IN_FLIGHT = 20;

export class UserHub extends BaseUserHub {
  constructor(ctx: DurableObjectState, env: Env) {
    countHubStart(ctx);
    countHubSql(ctx.storage);
    trackHubAlarms(ctx.storage, ctx.id.toString());
    super(ctx, countedEnv(env, "hub"));
  }
  /** Test-only: drops this instance, as the runtime's eviction of an idle hub would (see evictHub). */
  scaleEvict(): void {
    evictHub(this.ctx);
  }
  override async alarm(): Promise<void> {
    countHubAlarm(this.ctx.id.toString());
    return super.alarm();
  }
  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    countHubSocketMessage();
    return super.webSocketMessage(ws, message);
  }
}

export class TurnWorkflow extends BaseTurnWorkflow {
  constructor(ctx: ExecutionContext, env: Env) {
    super(ctx, countedEnv(env, "workflow"));
  }
  override run(event: Readonly<WorkflowEvent<TurnParams>>, step: WorkflowStep) {
    return super.run(event, countingStep(step));
  }
}

export default {
  fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === "/v1/test/scale-counts")
      return Response.json(snapshot(url.searchParams.get("reset") === "1"));
    // Bulk seeding for the simulator, on the raw binding (not counted).
    if (url.pathname === "/v1/test/scale-seed" && request.method === "POST")
      return request.json().then((body) => seed(env.DB, body).then((r) => Response.json(r)));
    // Cold windows: each named user's hub reset, on the raw binding (the caller reads the counts after this, with
    // a reset, so what the resets and the constructions they cause cost is not counted).
    if (url.pathname === "/v1/test/scale-cold" && request.method === "POST")
      return request.json().then(async (body) => {
        const { user_ids } = body as { user_ids: string[] };
        let evicted = 0;
        for (let i = 0; i < user_ids.length; i += COLD_IN_FLIGHT)
          await Promise.all(
            user_ids.slice(i, i + COLD_IN_FLIGHT).map(async (userId) => {
              const hub = env.USER_HUB.get(env.USER_HUB.idFromName(userId)) as unknown as {
                scaleEvict(): Promise<void>;
              };
              // The reset throws in the hub by design; its caller sees that error.
              await hub.scaleEvict().then(
                () => undefined,
                () => undefined,
              );
              evicted++;
            }),
          );
        return Response.json({ evicted });
      });
    return base.fetch(request, countedEnv(env, "worker"), ctx);
  },
  scheduled: (controller, env, ctx) => base.scheduled(controller, countedEnv(env, "worker"), ctx),
} satisfies ExportedHandler<Env>;
