// The decision API: POST /v1/decisions (a long poll for a person, or 202 with ?wait=false), GET one,
// withdraw one, end a session.
import { DecisionPending, DecisionRequest, DecisionResponse } from "../../protocol/decisions.ts";
import { CallParams, CallWithdrawn, DecideQuery, SessionEnded, SessionParams } from "../../protocol/rest.ts";
import { ApiError, notFound, rateLimited } from "../errors.ts";
import { hubFor } from "../hub/call.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

const iso = (ms: number) => new Date(ms).toISOString();

export const decisionRoutes = routeGroup()
  .openapi(
    apiRoute("submit_calls", {
      method: "post",
      path: "/v1/decisions",
      summary: "Decide a tool call (a long poll for a person unless ?wait=false)",
      request: { query: DecideQuery, ...jsonRequest(DecisionRequest) },
      responses: {
        200: json("Decided.", DecisionResponse),
        202: json(
          "A person has not answered yet (?wait=false, or the long poll ran out: send the same call again).",
          DecisionPending,
        ),
        409: problem("call_conflict: this call_id was already used for a different call."),
        429: problem("rate_limited: the device is over its call budget (see Retry-After)."),
      },
    }),
    async (c) => {
      const { wait } = c.req.valid("query");
      const request = c.req.valid("json");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const outcome = await hub.decide(caller, request, wait === "true");
      if (outcome.kind === "decided") return c.json(outcome.response, 200);
      if (outcome.kind === "rate_limited")
        throw rateLimited(
          outcome.retryAfterMs / 1000,
          "This device is over its call budget; send the call again after Retry-After.",
        );
      if (outcome.kind === "conflict")
        throw new ApiError(
          409,
          "call_conflict",
          `call_id ${request.call_id} was already used for a different call; send a new call_id.`,
        );
      const pending = {
        call_id: request.call_id,
        status: "pending" as const,
        prompt_id: outcome.promptId,
        expires_at: iso(outcome.expiresAt),
      };
      return c.json(pending, 202);
    },
  )
  .openapi(
    apiRoute("read_decisions", {
      method: "get",
      path: "/v1/decisions/{call_id}",
      summary: "The decision of one call (asking keeps the sender's waiting call held)",
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
      const expires = known.expiresAt === undefined ? {} : { expires_at: iso(known.expiresAt) };
      return c.json(
        { call_id, status: "pending" as const, prompt_id: known.promptId ?? "", ...expires },
        202,
      );
    },
  )
  .openapi(
    apiRoute("submit_calls", {
      method: "post",
      path: "/v1/decisions/{call_id}/withdraw",
      summary: "Stop waiting for one of this device's calls (it is denied as abandoned)",
      request: { params: CallParams },
      responses: { 200: json("Withdrawn, or nothing of this device's was waiting.", CallWithdrawn) },
    }),
    async (c) => {
      const { call_id } = c.req.valid("param");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const withdrawn = await hub.withdraw(caller, [call_id]);
      return c.json({ call_id, withdrawn: withdrawn > 0 }, 200);
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
