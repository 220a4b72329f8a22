// How a route is declared: its access, request and response schemas in one `apiRoute`, from which come the
// role check, the validation and the OpenAPI document (GET /v1/openapi.json). See docs/development.md.
import { createRoute, OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { z } from "zod";
import { ErrorEnvelope } from "../../protocol/errors.ts";
import { type Action, AUTHORITY } from "../../protocol/roles.ts";
import { requireAdmin } from "../auth/admin.ts";
import { requireStepUp, type StepUpApplies } from "../auth/step-up.ts";
import type { AppEnv } from "../env.ts";
import { ApiError, forbidden } from "../errors.ts";
import { authenticate } from "../middleware/auth.ts";
import { authorize } from "../middleware/authorize.ts";
import { fieldProblems } from "../middleware/validate.ts";

/**
 * Who may call a route: `public` (anyone), `admin` (the operator's ADMIN_BOOTSTRAP_TOKEN), or an action
 * from the authority table (src/protocol/roles.ts), which names the least device role allowed.
 */
export type Access = "public" | "admin" | Action;

const ErrorResponse = ErrorEnvelope.openapi("ErrorEnvelope");
/** An error response in the one envelope, for a route's `responses` (e.g. `404: problem("No such prompt.")`). */
export const problem = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorResponse } },
});

function guards(access: Access): MiddlewareHandler<AppEnv>[] {
  if (access === "public") return [];
  if (access === "admin") {
    return [
      async (c, next) => {
        requireAdmin(c.env, c.req.header("authorization"));
        await next();
      },
    ];
  }
  return [authenticate(), authorize(access)];
}

function security(access: Access): RouteConfig["security"] {
  if (access === "public") return [];
  if (access === "admin") return [{ adminToken: [] }];
  return [{ deviceToken: [] }, { sessionCookie: [] }];
}

type RouteInput = Omit<RouteConfig, "middleware" | "security">;

export interface RouteOptions {
  /**
   * Passkey step-up (src/edge/auth/step-up.ts): once the account has a passkey, this route needs a fresh
   * assertion's token in X-Airlock-Step-Up. `true` for every request, or a predicate for the ones that need it.
   */
  stepUp?: true | StepUpApplies;
  /**
   * Only the person in their paired browser: the session cookie, never a bearer token (an agent on the dev
   * machine can read a device token, never the phone's httpOnly cookie). Remote MCP's consent uses it.
   */
  sessionCookieOnly?: true;
}

const requireSessionCookie: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get("auth").via !== "cookie") {
    throw forbidden(
      "Only the person signed in on the dashboard can do this; a device token cannot (it needs the session cookie).",
    );
  }
  await next();
};

/** One route: `createRoute` plus the guards, the auth scheme, the role and the error envelopes. */
export function apiRoute<const R extends RouteInput>(access: Access, route: R, options: RouteOptions = {}) {
  const role = access === "public" || access === "admin" ? access : AUTHORITY[access];
  const body = route.request?.body;
  const errors: RouteConfig["responses"] = {
    ...(route.request
      ? { 400: problem("Invalid JSON, parameters or body (each bad field in details).") }
      : {}),
    ...(access === "public" ? {} : { 401: problem("Missing, invalid, expired or revoked credentials.") }),
    ...(access === "public" || access === "admin"
      ? {}
      : { 403: problem(`Only a device of role ${role} or higher may ${access.replaceAll("_", " ")}.`) }),
    ...(body ? { 413: problem("Body over 256 KiB."), 415: problem("Body is not application/json.") } : {}),
    ...(options.sessionCookieOnly
      ? {
          403: problem(
            `Only an approver's session cookie may ${access.replaceAll("_", " ")}; a bearer token gets 403.`,
          ),
        }
      : {}),
    ...(options.stepUp
      ? {
          403: problem(
            `Only an approver may ${access.replaceAll("_", " ")}; with a passkey registered, also step_up_required without a fresh step-up token.`,
          ),
        }
      : {}),
    default: problem("Any other error, in the one envelope."),
  };
  return createRoute({
    ...route,
    // Every body field has a default, so an empty body reads as {} (see middleware/json-body.ts).
    ...(body ? { request: { ...route.request, body: { ...body, required: true } } } : {}),
    middleware: [
      ...guards(access),
      ...(options.sessionCookieOnly ? [requireSessionCookie] : []),
      ...(options.stepUp ? [requireStepUp(options.stepUp === true ? undefined : options.stepUp)] : []),
    ],
    ...(options.stepUp ? { "x-airlock-step-up": true } : {}),
    ...(options.sessionCookieOnly ? { "x-airlock-session-cookie-only": true } : {}),
    security: options.sessionCookieOnly ? [{ sessionCookie: [] }] : security(access),
    "x-airlock-access": access,
    "x-airlock-role": role,
    responses: { ...errors, ...route.responses },
  }) as R & { middleware: MiddlewareHandler<AppEnv>[]; getRoutingPath(): string };
}

const where = { json: "request body", query: "query parameters", param: "path parameters" } as const;

/** A group of routes; validation failures become the 400 envelope naming each bad field. */
export function routeGroup() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (result.success) return;
      const problems = fieldProblems(result.error);
      const names = problems.map((p) => p.path).join(", ");
      const target = where[result.target as keyof typeof where] ?? result.target;
      throw new ApiError(400, "validation_failed", `Invalid ${target}: check ${names}.`, {
        details: problems,
      });
    },
  });
}

/** A JSON response of `schema`, for `responses`. */
export function json<S extends z.ZodType>(description: string, schema: S) {
  return { description, content: { "application/json": { schema } } };
}

/** A JSON request body of `schema`, for `request` (e.g. `request: { ...jsonRequest(Body), params }`). */
export function jsonRequest<S extends z.ZodType>(schema: S) {
  return { body: { content: { "application/json": { schema } } } };
}
