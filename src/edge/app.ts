// The Hono app: middleware order, route groups, the OpenAPI document, and the 404/405 answers.
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Hono } from "hono";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./env.ts";
import { ApiError, handleError } from "./errors.ts";
import { bodyLimit } from "./middleware/body-limit.ts";
import { cors } from "./middleware/cors.ts";
import { jsonBody } from "./middleware/json-body.ts";
import { approvalRoutes } from "./routes/approvals.ts";
import { auditRoutes } from "./routes/audit.ts";
import { bootstrapRoutes } from "./routes/bootstrap.ts";
import { chatRoutes } from "./routes/chat.ts";
import { connectRoutes } from "./routes/connect.ts";
import { connectionRoutes } from "./routes/connections.ts";
import { decisionRoutes } from "./routes/decisions.ts";
import { deviceRoutes } from "./routes/devices.ts";
import { futuresRoutes } from "./routes/futures.ts";
import { grantRoutes } from "./routes/grants.ts";
import { hookRoutes } from "./routes/hooks.ts";
import { idempotentTargetRoutes } from "./routes/idempotent-targets.ts";
import { jobRoutes } from "./routes/jobs.ts";
import { mcpClientRoutes } from "./routes/mcp-clients.ts";
import { notificationRoutes } from "./routes/notifications.ts";
import { openApiDocument } from "./routes/openapi.ts";
import { pairingRoutes } from "./routes/pairing.ts";
import { parityRoutes } from "./routes/parity.ts";
import { passkeyHostRoutes } from "./routes/passkey-hosts.ts";
import { passkeyRoutes } from "./routes/passkeys.ts";
import { planRoutes } from "./routes/plans.ts";
import { policyInsightRoutes } from "./routes/policy-insights.ts";
import { policyToolRoutes } from "./routes/policy-tools.ts";
import { proposalRoutes } from "./routes/proposals.ts";
import { pushRoutes } from "./routes/push.ts";
import { scheduleRoutes } from "./routes/schedules.ts";
import { sessionGrantRoutes } from "./routes/session-grants.ts";
import { settingsRoutes } from "./routes/settings.ts";
import { systemRoutes } from "./routes/system.ts";

const routeGroups = [
  systemRoutes,
  bootstrapRoutes,
  pairingRoutes,
  parityRoutes,
  deviceRoutes,
  connectRoutes,
  decisionRoutes,
  approvalRoutes,
  proposalRoutes,
  hookRoutes,
  sessionGrantRoutes,
  grantRoutes,
  settingsRoutes,
  auditRoutes,
  pushRoutes,
  passkeyRoutes,
  passkeyHostRoutes,
  policyToolRoutes,
  planRoutes,
  idempotentTargetRoutes,
  futuresRoutes,
  chatRoutes,
  jobRoutes,
  scheduleRoutes,
  notificationRoutes,
  policyInsightRoutes,
  mcpClientRoutes,
  connectionRoutes,
];

/** Each registered route as a method and a path matcher, for telling 405 from 404. */
function routeTable(app: Hono<AppEnv>) {
  return app.routes
    .filter((r) => r.method !== "ALL")
    .map((r) => ({
      method: r.method,
      pattern: new RegExp(
        `^${r.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\/:[^/]+/g, "/[^/]+")}$`,
      ),
    }));
}

export function createApp(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  app.use(
    "*",
    requestId({ limitLength: 64 }),
    secureHeaders({
      strictTransportSecurity: "max-age=63072000; includeSubDomains",
      xFrameOptions: "DENY",
      referrerPolicy: "no-referrer",
      contentSecurityPolicy: { frameAncestors: ["'none'"] },
    }),
    async (c, next) => {
      await next();
      // API answers are per caller and often secret: never cached unless a route says otherwise.
      if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
    },
    cors(),
    bodyLimit(),
    jsonBody(),
  );
  for (const group of routeGroups) app.route("/", group);
  openApiDocument(app);

  const table = routeTable(app);
  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    const allowed = [...new Set(table.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    if (allowed.length) {
      throw new ApiError(405, "method_not_allowed", `${c.req.method} is not allowed on ${path}.`, {
        details: { allowed },
        headers: { Allow: allowed.join(", ") },
      });
    }
    throw new ApiError(404, "not_found", `No route ${c.req.method} ${path}.`);
  });
  app.onError(handleError);
  return app;
}
