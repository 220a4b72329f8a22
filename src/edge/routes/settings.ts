// Settings: emergency controls, the account policy, approval timing.
import { Hono } from "hono";
import { z } from "zod";
import { EmergencyControls } from "../../protocol/capability.ts";
import type { AppEnv } from "../env.ts";
import { hubFor, unwrap } from "../hub/call.ts";
import { authenticate } from "../middleware/auth.ts";
import { readJson } from "../middleware/validate.ts";

const EmergencyPatch = EmergencyControls.partial().refine((p) => Object.keys(p).length > 0, {
  message: "send at least one of readOnly, disableHighImpact, blockedTools",
});
const PolicyBody = z.strictObject({ policy: z.string().max(200_000) });
const ApprovalSettings = z.strictObject({ prompt_timeout_ms: z.number().int().min(1_000).max(600_000) });

export const settingsRoutes = new Hono<AppEnv>()
  .get("/v1/settings/emergency", authenticate(), async (c) => {
    const { hub, caller } = hubFor(c.env, c.get("auth"));
    return c.json(await hub.emergency(caller));
  })
  .post("/v1/settings/emergency", authenticate(), async (c) => {
    const patch = await readJson(c, EmergencyPatch);
    const { hub, caller } = hubFor(c.env, c.get("auth"));
    return c.json(await hub.setEmergency(caller, patch));
  })
  .get("/v1/settings/policy", authenticate(), async (c) => {
    const { hub, caller } = hubFor(c.env, c.get("auth"));
    const stored = await hub.accountPolicy(caller);
    return c.json({
      policy: stored?.text ?? null,
      updated_at: stored ? new Date(stored.updatedAt).toISOString() : null,
      emergency: await hub.emergency(caller),
    });
  })
  .put("/v1/settings/policy", authenticate(), async (c) => {
    const body = await readJson(c, PolicyBody);
    const { hub, caller } = hubFor(c.env, c.get("auth"));
    const saved = unwrap(await hub.setAccountPolicy(caller, body.policy));
    return c.json({ updated_at: new Date(saved.updatedAt).toISOString() });
  })
  .put("/v1/settings/approvals", authenticate(), async (c) => {
    const body = await readJson(c, ApprovalSettings);
    const { hub, caller } = hubFor(c.env, c.get("auth"));
    await hub.setPromptTimeout(caller, body.prompt_timeout_ms);
    return c.json(body);
  });
