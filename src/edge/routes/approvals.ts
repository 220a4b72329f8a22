// Approvals for people: list prompts, get a confirmation token, approve or reject.
import { Hono } from "hono";
import { z } from "zod";
import { ApproveRequest, RejectRequest } from "../../protocol/prompts.ts";
import type { AppEnv } from "../env.ts";
import { hubFor, unwrap } from "../hub/call.ts";
import { authenticate } from "../middleware/auth.ts";
import { readJson, readParams, readQuery } from "../middleware/validate.ts";

const ListQuery = z.object({
  status: z.enum(["pending", "resolved"]).default("pending"),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
const PromptParams = z.object({
  id: z.string().regex(/^prm_[A-Za-z0-9_-]{16}$/, "must be a prompt id (prm_…)"),
});

export const approvalRoutes = new Hono<AppEnv>()
  .get("/v1/approvals", authenticate(), async (c) => {
    const { status, limit } = readQuery(c, ListQuery);
    const { hub, caller } = hubFor(c.env, c.get("auth"));
    return c.json({ approvals: await hub.approvals(caller, status, limit) });
  })
  .post("/v1/approvals/:id/confirm", authenticate(), async (c) => {
    const { id } = readParams(c, PromptParams);
    const { hub, caller } = hubFor(c.env, c.get("auth"));
    const issued = unwrap(await hub.confirm(caller, id));
    return c.json(
      { token: issued.token, expires_at: new Date(issued.expiresAt).toISOString(), prompt_id: id },
      201,
    );
  })
  .post("/v1/approvals/:id/approve", authenticate(), async (c) => {
    const { id } = readParams(c, PromptParams);
    const body = await readJson(c, ApproveRequest);
    const { hub, caller } = hubFor(c.env, c.get("auth"));
    const decision =
      body.scope === "once" ? "allow_once" : body.scope === "session" ? "allow_session" : "allow_always";
    return c.json({ prompt: unwrap(await hub.resolve(caller, id, decision, body.confirmation_token)) });
  })
  .post("/v1/approvals/:id/reject", authenticate(), async (c) => {
    const { id } = readParams(c, PromptParams);
    const body = await readJson(c, RejectRequest);
    const { hub, caller } = hubFor(c.env, c.get("auth"));
    const decision = body.scope === "always" ? "deny_always" : "deny_once";
    return c.json({ prompt: unwrap(await hub.resolve(caller, id, decision)) });
  });
