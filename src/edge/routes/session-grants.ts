// Session grants (from "Allow for session") for the dashboard's Grants view: list the live ones, revoke one.
import { Deleted, SessionGrantList, SessionGrantParams } from "../../protocol/dashboard.ts";
import { hubFor, unwrap } from "../hub/call.ts";
import { apiRoute, json, problem, routeGroup } from "./define.ts";

const iso = (ms: number) => new Date(ms).toISOString();

export const sessionGrantRoutes = routeGroup()
  .openapi(
    apiRoute("read_grants", {
      method: "get",
      path: "/v1/grants/session",
      summary: "Live allow_session grants, newest first",
      responses: { 200: json("Session grants.", SessionGrantList) },
    }),
    async (c) => {
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const rows = await hub.listSessionGrants(caller);
      return c.json(
        {
          grants: rows.map((g) => ({
            id: g.id,
            session_id: g.session_id,
            agent_id: g.agent_id,
            capability: g.capability,
            scope_pattern: g.scope_pattern,
            created_at: iso(g.created_at),
            last_used_at: iso(g.last_used_at),
          })),
        },
        200,
      );
    },
  )
  .openapi(
    apiRoute("manage_grants", {
      method: "delete",
      path: "/v1/grants/session/{id}",
      summary: "Revoke one session grant: the next matching call asks again",
      request: { params: SessionGrantParams },
      responses: { 200: json("Revoked.", Deleted), 404: problem("No such session grant.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      return c.json(unwrap(await hub.deleteSessionGrant(caller, id)), 200);
    },
  );
