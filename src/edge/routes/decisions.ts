// The decision API: POST /v1/decisions (wait for a person, or 202 with ?wait=false), GET one, end a session.
import { Hono } from "hono";
import { z } from "zod";
import { DecisionRequest } from "../../protocol/decisions.ts";
import type { AppEnv } from "../env.ts";
import { notFound } from "../errors.ts";
import { hubFor } from "../hub/call.ts";
import { authenticate } from "../middleware/auth.ts";
import { readJson, readParams, readQuery } from "../middleware/validate.ts";

const DecideQuery = z.object({ wait: z.enum(["true", "false"]).default("true") });
const CallParams = z.object({ call_id: z.string().min(1).max(200) });
const SessionParams = z.object({ session_id: z.string().min(1).max(200) });

export const decisionRoutes = new Hono<AppEnv>()
  .post("/v1/decisions", authenticate(), async (c) => {
    const { wait } = readQuery(c, DecideQuery);
    const request = await readJson(c, DecisionRequest);
    const { hub, caller } = hubFor(c.env, c.get("auth"));
    const outcome = await hub.decide(caller, request, wait === "true");
    if (outcome.kind === "decided") return c.json(outcome.response, 200);
    return c.json({ call_id: request.call_id, status: "pending", prompt_id: outcome.promptId }, 202);
  })
  .get("/v1/decisions/:call_id", authenticate(), async (c) => {
    const { call_id } = readParams(c, CallParams);
    const { hub, caller } = hubFor(c.env, c.get("auth"));
    const known = await hub.decisionFor(caller, call_id);
    if (!known) throw notFound(`No call ${call_id} has been asked about.`);
    if (known.response) return c.json(known.response, 200);
    return c.json({ call_id, status: "pending", prompt_id: known.promptId ?? "" }, 202);
  })
  .post("/v1/sessions/:session_id/end", authenticate(), async (c) => {
    const { session_id } = readParams(c, SessionParams);
    const { hub, caller } = hubFor(c.env, c.get("auth"));
    const removed = await hub.endSession(caller, session_id);
    return c.json({ ended: true, grants_removed: removed });
  });
