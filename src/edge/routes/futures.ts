// Precognition stats: companions report theirs (POST), the person's dashboard reads every device's (GET).
import { z } from "zod";
import { FuturesStats, FuturesStatsList } from "../../protocol/futures.ts";
import { hubFor } from "../hub/call.ts";
import { apiRoute, json, jsonRequest, routeGroup } from "./define.ts";

const StatsAccepted = z.object({ accepted: z.literal(true) });

export const futuresRoutes = routeGroup()
  .openapi(
    apiRoute("report_futures_stats", {
      method: "post",
      path: "/v1/futures/stats",
      summary: "A companion's precognition counts (hits, misses by reason, time saved); never contents",
      request: jsonRequest(FuturesStats),
      responses: { 202: json("Kept as this device's latest report.", StatsAccepted) },
    }),
    async (c) => {
      const stats = c.req.valid("json");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      await hub.putFuturesStats(caller, stats);
      return c.json({ accepted: true as const }, 202);
    },
  )
  .openapi(
    apiRoute("read_futures_stats", {
      method: "get",
      path: "/v1/futures/stats",
      summary: "The latest precognition report of each companion device, newest first",
      responses: { 200: json("One entry per reporting device.", FuturesStatsList) },
    }),
    async (c) => {
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      return c.json({ devices: await hub.futuresStats(caller) }, 200);
    },
  );
