// The test Worker entry with the scale counters (test/edge/scale-counts.ts) installed: the Worker's, every
// hub's and every turn's D1 binding, hub stubs and Workflow binding are counted, and GET /v1/test/scale-counts answers
// the counts (`?reset=1` starts a new window); POST /v1/test/scale-seed bulk-creates users with history
// (test/edge/scale-seed.ts). For the scale benches under `wrangler dev` (bench/scale); the
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
  snapshot,
  trackHubAlarms,
} from "./scale-counts.ts";
import { seed } from "./scale-seed.ts";
import base, { TurnWorkflow as BaseTurnWorkflow, UserHub as BaseUserHub } from "./worker-entry.ts";

export * from "./worker-entry.ts";

countFetches();

export class UserHub extends BaseUserHub {
  constructor(ctx: DurableObjectState, env: Env) {
    countHubStart(ctx);
    countHubSql(ctx.storage);
    trackHubAlarms(ctx.storage, ctx.id.toString());
    super(ctx, countedEnv(env, "hub"));
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
    return base.fetch(request, countedEnv(env, "worker"), ctx);
  },
  scheduled: (controller, env, ctx) => base.scheduled(controller, countedEnv(env, "worker"), ctx),
} satisfies ExportedHandler<Env>;
