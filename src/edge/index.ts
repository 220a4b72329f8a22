// The Worker entry: the Hono app for HTTP, and the UserHub Durable Object class.
import { createApp } from "./app.ts";
import { sweepRetention } from "./runtime/retention.ts";

export { UserHub } from "./hub/user-hub.ts";
export { TurnWorkflow } from "./runtime/workflow.ts";

const app = createApp();

export default {
  fetch: app.fetch,
  scheduled: (controller, env, ctx) => ctx.waitUntil(sweepRetention(env, controller.scheduledTime)),
} satisfies ExportedHandler<Env>;
