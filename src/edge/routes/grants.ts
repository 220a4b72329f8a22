// Persisted grants: list (the companion caches them) and delete (approvers only).
import { type Grant, GrantDeleted, GrantList, GrantParams } from "../../protocol/rest.ts";
import { CONVEYOR_AGENT } from "../conveyor/grants.ts";
import { hubFor, unwrap } from "../hub/call.ts";
import { apiRoute, json, problem, routeGroup } from "./define.ts";

export const grantRoutes = routeGroup()
  .openapi(
    apiRoute("read_grants", {
      method: "get",
      path: "/v1/grants",
      summary: "Saved allow/deny grants",
      responses: { 200: json("Every persisted grant of the account.", GrantList) },
    }),
    async (c) => {
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const all = await hub.listGrants(caller);
      // Proposal grants (agent "conveyor") name a tool, not a capability: listed apart.
      const grants = all.filter((g) => g.agentId !== CONVEYOR_AGENT);
      const conveyor = all.filter((g) => g.agentId === CONVEYOR_AGENT);
      return c.json(
        {
          conveyor_grants: conveyor.map((g) => ({
            id: g.id,
            tool: g.capability.replace(/^conveyor:/, ""),
            scope: g.scopePattern ?? "",
            effect: g.effect,
            created_at: new Date(g.createdAt).toISOString(),
            created_by: g.createdByDevice,
            prompt_id: g.promptId,
          })),
          grants: grants.map((g) => ({
            id: g.id,
            agent_id: g.agentId,
            capability: g.capability as Grant["capability"],
            match: g.match,
            scope_pattern: g.scopePattern,
            scope_hash: g.scopeHash,
            version_range: g.versionRange,
            effect: g.effect,
            created_at: new Date(g.createdAt).toISOString(),
            created_by: g.createdByDevice,
            prompt_id: g.promptId,
          })),
        },
        200,
      );
    },
  )
  .openapi(
    apiRoute("manage_grants", {
      method: "delete",
      path: "/v1/grants/{id}",
      summary: "Delete a grant",
      request: { params: GrantParams },
      responses: { 200: json("Deleted.", GrantDeleted), 404: problem("No such grant.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      return c.json(unwrap(await hub.deleteGrant(caller, id)), 200);
    },
  );
