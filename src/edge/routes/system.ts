// Unauthenticated system routes: health and version.
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { VERSION } from "../version.ts";

export const systemRoutes = new Hono<AppEnv>()
  .get("/healthz", (c) => c.json({ ok: true }))
  .get("/v1/version", (c) => c.json({ version: VERSION, build_id: c.env.AIRLOCK_BUILD_ID }));
