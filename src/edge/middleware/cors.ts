// CORS for the configured dashboard origins only; any other cross-origin caller is refused.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { envelope } from "../errors.ts";

export function allowedOrigins(env: Env, requestUrl: string): Set<string> {
  const origins = new Set(
    String(env.DASHBOARD_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean),
  );
  origins.add(new URL(requestUrl).origin);
  return origins;
}

export function cors(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (!origin) return next();
    const allowed = allowedOrigins(c.env, c.req.url);
    if (!allowed.has(origin)) {
      // Preflights and cross-origin calls from unlisted origins get no CORS headers and a 403.
      return c.json(envelope("forbidden", `Origin ${origin} is not an allowed dashboard origin.`), 403);
    }
    c.header("Access-Control-Allow-Origin", origin);
    c.header("Access-Control-Allow-Credentials", "true");
    c.header("Vary", "Origin");
    if (c.req.method === "OPTIONS") {
      c.header("Access-Control-Allow-Methods", "GET, POST, PATCH, DELETE, OPTIONS");
      c.header("Access-Control-Allow-Headers", "Authorization, Content-Type, Idempotency-Key, X-Request-Id");
      c.header("Access-Control-Max-Age", "600");
      return c.body(null, 204);
    }
    return next();
  };
}
