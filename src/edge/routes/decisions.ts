// The decision API: POST /v1/decisions (wait for a person, or 202 with ?wait=false), GET one, end a session.
import { DecisionPending, DecisionRequest, DecisionResponse } from "../../protocol/decisions.ts";
import { CallParams, DecideQuery, SessionEnded, SessionParams } from "../../protocol/rest.ts";
import { notFound } from "../errors.ts";
import { hubFor } from "../hub/call.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

export const decisionRoutes = routeGroup()
  .openapi(
    apiRoute("submit_calls", {
      method: "post",
      path: "/v1/decisions",
      summary: "Decide a tool call (waits for a person unless ?wait=false)",
      request: { query: DecideQuery, ...jsonRequest(DecisionRequest) },
      responses: {
        200: json("Decided.", DecisionResponse),
        202: json("A person has not answered yet (?wait=false, or the wait ran out).", DecisionPending),
      },
    }),
    async (c) => {
      const { wait } = c.req.valid("query");
      const request = c.req.valid("json");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const outcome = await hub.decide(caller, request, wait === "true");
      if (outcome.kind === "decided") return c.json(outcome.response, 200);
      return c.json(
        { call_id: request.call_id, status: "pending" as const, prompt_id: outcome.promptId },
        202,
      );
    },
  )
  .openapi(
    apiRoute("read_decisions", {
      method: "get",
      path: "/v1/decisions/{call_id}",
      summary: "The decision of one call",
      request: { params: CallParams },
      responses: {
        200: json("Decided.", DecisionResponse),
        202: json("Still waiting for a person.", DecisionPending),
        404: problem("No such call was asked about."),
      },
    }),
    async (c) => {
      const { call_id } = c.req.valid("param");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const known = await hub.decisionFor(caller, call_id);
      if (!known) throw notFound(`No call ${call_id} has been asked about.`);
      if (known.response) return c.json(known.response, 200);
      return c.json({ call_id, status: "pending" as const, prompt_id: known.promptId ?? "" }, 202);
    },
  )
  .openapi(
    apiRoute("end_sessions", {
      method: "post",
      path: "/v1/sessions/{session_id}/end",
      summary: "End a session's allow_session grants",
      request: { params: SessionParams },
      responses: { 200: json("Ended.", SessionEnded) },
    }),
    async (c) => {
      const { session_id } = c.req.valid("param");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const removed = await hub.endSession(caller, session_id);
      return c.json({ ended: true as const, grants_removed: removed }, 200);
    },
  );
