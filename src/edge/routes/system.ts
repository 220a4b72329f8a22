// Unauthenticated system routes: health and version.
import { Health, VersionInfo } from "../../protocol/rest.ts";
import { VERSION } from "../version.ts";
import { apiRoute, json, routeGroup } from "./define.ts";

export const systemRoutes = routeGroup()
  .openapi(
    apiRoute("public", {
      method: "get",
      path: "/healthz",
      summary: "Liveness",
      responses: { 200: json("The Worker answers.", Health) },
    }),
    (c) => c.json({ ok: true as const }, 200),
  )
  .openapi(
    apiRoute("public", {
      method: "get",
      path: "/v1/version",
      summary: "Server version and build",
      responses: { 200: json("Version and build id.", VersionInfo) },
    }),
    (c) => c.json({ version: VERSION, build_id: String(c.env.AIRLOCK_BUILD_ID) }, 200),
  );
