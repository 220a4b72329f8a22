// GET /v1/connect: authenticates, then hands the websocket upgrade to the user's UserHub.
import { Hono } from "hono";
import { z } from "zod";
import { ClientRole } from "../../protocol/socket.ts";
import type { AppEnv } from "../env.ts";
import { ApiError, forbidden } from "../errors.ts";
import { userHub } from "../hub/stub.ts";
import { authenticate } from "../middleware/auth.ts";
import { allowedOrigins } from "../middleware/cors.ts";
import { readQuery } from "../middleware/validate.ts";

const ConnectQuery = z.object({ role: ClientRole.optional() });

export const connectRoutes = new Hono<AppEnv>().get("/v1/connect", authenticate(), async (c) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    throw new ApiError(
      426,
      "bad_request",
      "GET /v1/connect upgrades to a websocket: send Upgrade: websocket.",
    );
  }
  const auth = c.get("auth");
  const origin = c.req.header("origin");
  if (auth.via === "cookie" && (!origin || !allowedOrigins(c.env, c.req.url).has(origin))) {
    throw forbidden("Browser sockets must come from the dashboard's origin.");
  }
  const { role = auth.deviceKind === "browser" ? "dashboard" : "companion" } = readQuery(c, ConnectQuery);
  const headers = new Headers(c.req.raw.headers);
  headers.set("x-airlock-user", auth.userId);
  headers.set("x-airlock-device", auth.deviceId);
  headers.set("x-airlock-role", role);
  return userHub(c.env, auth.userId).fetch(new Request(c.req.raw.url, { headers }));
});
