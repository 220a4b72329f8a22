// Persisted grants: list and delete.
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../env.ts";
import { hubFor, unwrap } from "../hub/call.ts";
import { authenticate } from "../middleware/auth.ts";
import { readParams } from "../middleware/validate.ts";

const GrantParams = z.object({
  id: z.string().regex(/^grt_[A-Za-z0-9_-]{16}$/, "must be a grant id (grt_…)"),
});

export const grantRoutes = new Hono<AppEnv>()
  .get("/v1/grants", authenticate(), async (c) => {
    const { hub, caller } = hubFor(c.env, c.get("auth"));
    const grants = await hub.listGrants(caller);
    return c.json({
      grants: grants.map((g) => ({
        id: g.id,
        agent_id: g.agentId,
        capability: g.capability,
        scope_pattern: g.scopePattern,
        version_range: g.versionRange,
        effect: g.effect,
        created_at: new Date(g.createdAt).toISOString(),
        created_by: g.createdByDevice,
        prompt_id: g.promptId,
      })),
    });
  })
  .delete("/v1/grants/:id", authenticate(), async (c) => {
    const { id } = readParams(c, GrantParams);
    const { hub, caller } = hubFor(c.env, c.get("auth"));
    return c.json(unwrap(await hub.deleteGrant(caller, id)));
  });
