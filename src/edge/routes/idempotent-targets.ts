// Targets the person declares idempotent (docs/conveyor.md, "A crash after a send"): listing, declaring and
// removing are the person's (approvers, like grants); changes are audited. Only a tool with a target
// (http.request) can have one.
import type { Context } from "hono";
import { z } from "zod";
import { DeclareIdempotentTarget, IdempotentTarget } from "../../protocol/conveyor.ts";
import { auditDeviceAction } from "../audit/device-action.ts";
import * as targets from "../conveyor/idempotent-targets.ts";
import { toolRegistry } from "../conveyor/registry.ts";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

const TargetList = z.object({ targets: z.array(IdempotentTarget) });
const TargetParams = z.object({ tool: z.string().min(1).max(100), target: z.string().min(1).max(300) });

async function listed(c: Context<AppEnv>) {
  const rows = await targets.listTargets(openDb(c.env.DB), c.get("auth").userId);
  return rows.map((r) => ({
    tool: r.tool,
    target: r.target,
    created_at: new Date(r.createdAt).toISOString(),
    created_by: r.createdByDevice,
  }));
}

/** A target is named by its tool and its key together, in the entry's target as in its details. */
function audited(c: Context<AppEnv>, event: string, tool: string, target: string) {
  return auditDeviceAction(c, event, `${tool} ${target}`, { tool, target });
}

export const idempotentTargetRoutes = routeGroup()
  .openapi(
    apiRoute("read_grants", {
      method: "get",
      path: "/v1/idempotent-targets",
      summary: "Targets declared idempotent (re-sent after a crash instead of PARTIAL)",
      responses: { 200: json("Every declared target.", TargetList) },
    }),
    async (c) => c.json({ targets: await listed(c) }, 200),
  )
  .openapi(
    apiRoute("manage_grants", {
      method: "put",
      path: "/v1/idempotent-targets",
      summary: "Declare a target idempotent: it honours Idempotency-Key, so a possible send may be repeated",
      request: jsonRequest(DeclareIdempotentTarget),
      responses: {
        200: json("Declared (again is the same).", TargetList),
        400: problem("unknown_tool: the tool has no target that can be declared."),
      },
    }),
    async (c) => {
      const { tool, target } = c.req.valid("json");
      const declarable = targets.declarableTools(toolRegistry());
      if (!declarable.includes(tool))
        throw new ApiError(
          400,
          "unknown_tool",
          `Only ${declarable.join(", ")} can have a target declared idempotent.`,
        );
      const auth = c.get("auth");
      await targets.declareTarget(openDb(c.env.DB), {
        userId: auth.userId,
        tool,
        target,
        deviceId: auth.deviceId,
        now: Date.now(),
      });
      await audited(c, "conveyor.idempotent_target_declared", tool, target);
      return c.json({ targets: await listed(c) }, 200);
    },
  )
  .openapi(
    apiRoute("manage_grants", {
      method: "delete",
      path: "/v1/idempotent-targets/{tool}/{target}",
      summary: "Stop treating a target as idempotent",
      request: { params: TargetParams },
      responses: { 200: json("The targets left.", TargetList) },
    }),
    async (c) => {
      const { tool, target } = c.req.valid("param");
      if (await targets.removeTarget(openDb(c.env.DB), c.get("auth").userId, tool, target))
        await audited(c, "conveyor.idempotent_target_removed", tool, target.toLowerCase());
      return c.json({ targets: await listed(c) }, 200);
    },
  );
