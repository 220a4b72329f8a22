// Settings: emergency controls, the account policy, approval timing. Reading is for every device; changing
// is for approvers.

import type { Context } from "hono";
import { EmergencyControls } from "../../protocol/capability.ts";
import {
  ApprovalSettings,
  EmergencyPatch,
  PolicyBody,
  PolicySaved,
  PolicyView,
} from "../../protocol/rest.ts";
import type { AppEnv } from "../env.ts";
import { hubFor, unwrap } from "../hub/call.ts";
import { apiRoute, json, jsonRequest, routeGroup } from "./define.ts";

/**
 * Whether an emergency change lowers protection (a switch off, a tool unblocked): those need a passkey step-up;
 * turning protection on never waits for one. An unparsable body is left to validation's 400.
 */
async function lowersEmergency(c: Context<AppEnv>): Promise<boolean> {
  const parsed = EmergencyPatch.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) return false;
  const patch = parsed.data;
  if (patch.readOnly === false || patch.disableHighImpact === false) return true;
  if (!patch.blockedTools) return false;
  const { hub, caller } = hubFor(c.env, c.get("auth"));
  const current = await hub.emergency(caller);
  return current.blockedTools.some((tool) => !patch.blockedTools?.includes(tool));
}

export const settingsRoutes = routeGroup()
  .openapi(
    apiRoute("read_policy", {
      method: "get",
      path: "/v1/settings/emergency",
      summary: "Emergency controls",
      responses: { 200: json("The controls in force.", EmergencyControls) },
    }),
    async (c) => {
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      return c.json(await hub.emergency(caller), 200);
    },
  )
  .openapi(
    apiRoute(
      "change_emergency",
      {
        method: "post",
        path: "/v1/settings/emergency",
        summary: "Change emergency controls (any subset); every connected companion hears at once",
        request: jsonRequest(EmergencyPatch),
        responses: { 200: json("The controls now in force.", EmergencyControls) },
      },
      { stepUp: lowersEmergency },
    ),
    async (c) => {
      const patch = c.req.valid("json");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      return c.json(await hub.setEmergency(caller, patch), 200);
    },
  )
  .openapi(
    apiRoute("read_policy", {
      method: "get",
      path: "/v1/settings/policy",
      summary: "The account policy (permissions.yaml text) and emergency controls",
      responses: { 200: json('`policy` is "" when none is saved (then every call asks).', PolicyView) },
    }),
    async (c) => {
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const stored = await hub.accountPolicy(caller);
      return c.json(
        {
          policy: stored?.text ?? "",
          updated_at: stored ? new Date(stored.updatedAt).toISOString() : null,
          emergency: await hub.emergency(caller),
        },
        200,
      );
    },
  )
  .openapi(
    apiRoute(
      "change_policy",
      {
        method: "put",
        path: "/v1/settings/policy",
        summary: "Replace the account policy (400 with every load error)",
        request: jsonRequest(PolicyBody),
        responses: { 200: json("Saved.", PolicySaved) },
      },
      { stepUp: true },
    ),
    async (c) => {
      const body = c.req.valid("json");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const saved = unwrap(await hub.setAccountPolicy(caller, body.policy));
      return c.json({ updated_at: new Date(saved.updatedAt).toISOString() }, 200);
    },
  )
  .openapi(
    apiRoute("change_policy", {
      method: "put",
      path: "/v1/settings/approvals",
      summary: "How long a prompt waits for a person",
      request: jsonRequest(ApprovalSettings),
      responses: { 200: json("Saved.", ApprovalSettings) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      await hub.setPromptTimeout(caller, body.prompt_timeout_ms);
      return c.json(body, 200);
    },
  );
