// GET /v1/connect: authenticates, then hands the websocket upgrade to the user's UserHub with the device's role.
import { z } from "zod";
import { ClientRole } from "../../protocol/socket.ts";
import { ApiError, forbidden } from "../errors.ts";
import { userHub } from "../hub/stub.ts";
import { allowedOrigins } from "../middleware/cors.ts";
import { apiRoute, problem, routeGroup } from "./define.ts";

/** `dashboard` is the old name of the approver socket role, still accepted from older clients. */
const ConnectQuery = z.object({
  role: z
    .preprocess((v) => (v === "dashboard" ? "approver" : v), ClientRole)
    .optional()
    .describe("The socket's role; it must be the device's own (a companion cannot ask to be an approver)."),
});

export const connectRoutes = routeGroup().openapi(
  apiRoute("connect", {
    method: "get",
    path: "/v1/connect",
    summary: "Open the hub websocket (Upgrade: websocket)",
    description:
      "The socket's role is the device's role. Messages and close codes: docs/api.md#websocket and src/protocol/socket.ts.",
    request: { query: ConnectQuery },
    responses: {
      101: { description: "Switching protocols: the hub websocket." },
      426: problem("Not a websocket upgrade."),
    },
  }),
  async (c) => {
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
    const { role = auth.role } = c.req.valid("query");
    if (role !== auth.role) {
      throw new ApiError(
        403,
        "forbidden",
        `This is a ${auth.role} device; its socket is a ${auth.role} socket.`,
        {
          details: { role: auth.role, requested: role },
        },
      );
    }
    const headers = new Headers(c.req.raw.headers);
    headers.set("x-airlock-user", auth.userId);
    headers.set("x-airlock-device", auth.deviceId);
    headers.set("x-airlock-role", role);
    return userHub(c.env, auth.userId).fetch(new Request(c.req.raw.url, { headers }));
  },
);
