// The Worker entry: the Hono app for HTTP (remote MCP and its OAuth server in front), and the UserHub class.
import { createApp } from "./app.ts";
import { withRemoteMcp } from "./mcp/entry.ts";
import { sweepRetention } from "./runtime/retention.ts";

export { UserHub } from "./hub/user-hub.ts";
export { TurnWorkflow } from "./runtime/workflow.ts";

const app = createApp();

export default {
  fetch: withRemoteMcp(app.fetch),
  scheduled: (controller, env, ctx) => ctx.waitUntil(sweepRetention(env, controller.scheduledTime)),
} satisfies ExportedHandler<Env>;
