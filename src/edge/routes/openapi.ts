// GET /v1/openapi.json: the OpenAPI 3.1 document, generated from the same route definitions that validate.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { VERSION } from "../version.ts";

export const OPENAPI_PATH = "/v1/openapi.json";

export function openApiDocument(app: OpenAPIHono<AppEnv>): void {
  const registry = app.openAPIRegistry;
  registry.registerComponent("securitySchemes", "deviceToken", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "alk_<token_id>.<secret>",
    description: "A paired device's token. Its device role (companion or approver) decides what it may do.",
  });
  registry.registerComponent("securitySchemes", "sessionCookie", {
    type: "apiKey",
    in: "cookie",
    name: "airlock_session",
    description: "A paired browser's httpOnly cookie; writes must also carry an allowed Origin.",
  });
  registry.registerComponent("securitySchemes", "adminToken", {
    type: "http",
    scheme: "bearer",
    description: "The operator's ADMIN_BOOTSTRAP_TOKEN (a Worker secret).",
  });
  registry.registerPath({
    method: "get",
    path: OPENAPI_PATH,
    summary: "This document",
    security: [],
    "x-airlock-access": "public",
    "x-airlock-role": "public",
    responses: { 200: { description: "The OpenAPI 3.1 document of every route." } },
  });
  app.doc31(OPENAPI_PATH, (c) => ({
    openapi: "3.1.0",
    info: {
      title: "Airlock",
      version: VERSION,
      description:
        "Edge control plane for AI agents' tool calls. Errors use one envelope {error:{code,message,details?}}. " +
        "Each operation's x-airlock-role is the least device role allowed (public, admin, companion, approver).",
    },
    servers: [{ url: new URL(c.req.url).origin }],
  }));
}
