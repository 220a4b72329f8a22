// A request id on every request and response (X-Request-Id); a well-formed incoming id is kept.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";

const wellFormed = /^[A-Za-z0-9._-]{8,64}$/;

export function requestId(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const id = incoming && wellFormed.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", id);
    c.header("X-Request-Id", id);
    await next();
    c.header("X-Request-Id", id);
  };
}
