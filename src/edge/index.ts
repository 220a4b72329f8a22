// The Worker entry: the Hono app for HTTP, and the UserHub Durable Object class.
import { createApp } from "./app.ts";

export { UserHub } from "./hub/user-hub.ts";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
