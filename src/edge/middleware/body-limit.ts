// Refuses request bodies over the limit (413) before anything reads them.
import type { MiddlewareHandler } from "hono";
import { bodyLimit as honoBodyLimit } from "hono/body-limit";
import { MAX_BODY_BYTES } from "../../protocol/limits.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";

export { MAX_BODY_BYTES };

export function bodyLimit(maxSize = MAX_BODY_BYTES): MiddlewareHandler<AppEnv> {
  return honoBodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError(413, "payload_too_large", `The body is larger than ${maxSize / 1024} KiB.`);
    },
  });
}
