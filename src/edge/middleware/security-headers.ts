// Security headers on every response.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";

export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    c.header("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
    c.header("Content-Security-Policy", "frame-ancestors 'none'");
    c.header("X-Frame-Options", "DENY");
    c.header("Cache-Control", c.res.headers.get("Cache-Control") ?? "no-store");
  };
}
