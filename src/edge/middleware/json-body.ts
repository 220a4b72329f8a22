// Reads a request's JSON body once, before any validator: content type, nesting depth and syntax, each a clear 4xx.
import type { MiddlewareHandler } from "hono";
import { jsonTextDepth, MAX_JSON_DEPTH } from "../../protocol/limits.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";

const withBody = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const jsonType = /^application\/([\w.-]+\+)?json$/i;

/**
 * An empty body means `{}` (every body field has a default), so `POST …/approve` with no body approves once.
 * A non-empty body must be JSON (415), no deeper than MAX_JSON_DEPTH (400: deep nesting used to crash the
 * Durable Object call) and parse (400 `invalid_json`). Hono's validators then read the cached text.
 */
export function jsonBody(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!withBody.has(c.req.method)) return next();
    const text = await c.req.text();
    const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "";
    if (text.trim() === "") {
      // Hono's JSON validator parses the cached text; an empty JSON body then reads as {}.
      if (jsonType.test(mediaType)) Object.assign(c.req.bodyCache, { text: Promise.resolve("{}") });
      return next();
    }
    if (!jsonType.test(mediaType)) {
      throw new ApiError(
        415,
        "unsupported_media_type",
        "Send the body as JSON with Content-Type: application/json.",
      );
    }
    const depth = jsonTextDepth(text);
    if (depth > MAX_JSON_DEPTH) {
      throw new ApiError(
        400,
        "invalid_json",
        `The body nests ${depth} levels deep; the limit is ${MAX_JSON_DEPTH}.`,
        {
          details: { depth, max_depth: MAX_JSON_DEPTH },
        },
      );
    }
    try {
      JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : "unparsable";
      throw new ApiError(400, "invalid_json", `The body is not valid JSON: ${reason}.`);
    }
    await next();
  };
}
