// The policy's honest numbers and suggestions: asks per 100 calls over 7 days by reason, and the rules that
// would have allowed calls the person approved again and again (one tap adds one to the account policy).
import {
  AcceptSuggestion,
  PolicyStats,
  PolicySuggestionList,
  SuggestionAccepted,
} from "../../protocol/policy-insights.ts";
import { hubFor, unwrap } from "../hub/call.ts";
import { apiRoute, json, jsonRequest, routeGroup } from "./define.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Calls a companion decided on its own (they never reach the hub's record), from the audit log. */
async function localCalls(db: D1Database, userId: string, since: number): Promise<number> {
  const row = await db
    .prepare(
      `SELECT count(*) AS n FROM audit_log
       WHERE user_id = ? AND at >= ? AND event = 'policy.decision' AND actor LIKE 'companion:%'`,
    )
    .bind(userId, since)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

export const policyInsightRoutes = routeGroup()
  .openapi(
    apiRoute("read_policy_insights", {
      method: "get",
      path: "/v1/policy/stats",
      summary:
        "Asks per 100 calls over the last 7 days, by reason (not understood, no rule, HIGH, causal change)",
      responses: { 200: json("The numbers.", PolicyStats) },
    }),
    async (c) => {
      const auth = c.get("auth");
      const { hub, caller } = hubFor(c.env, auth);
      const local = await localCalls(c.env.DB, auth.userId, Date.now() - 7 * DAY_MS);
      return c.json(await hub.policyStats(caller, local), 200);
    },
  )
  .openapi(
    apiRoute("read_policy_insights", {
      method: "get",
      path: "/v1/policy/suggestions",
      summary: "Rules that would have allowed calls the person approved 3 or more times in 7 days",
      responses: {
        200: json(
          "Each with its YAML, the account policy's diff and what else it allows.",
          PolicySuggestionList,
        ),
      },
    }),
    async (c) => {
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      return c.json(await hub.policySuggestions(caller), 200);
    },
  )
  .openapi(
    apiRoute(
      "change_policy",
      {
        method: "post",
        path: "/v1/policy/suggestions/accept",
        summary: "Add a suggested rule to the account policy (audited as policy.suggestion_accepted)",
        request: jsonRequest(AcceptSuggestion),
        responses: { 200: json("Added.", SuggestionAccepted) },
      },
      { stepUp: true },
    ),
    async (c) => {
      const { id } = c.req.valid("json");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const saved = unwrap(await hub.acceptSuggestion(caller, id));
      return c.json({ updated_at: new Date(saved.updatedAt).toISOString(), name: saved.name }, 200);
    },
  );
