// Policy tools for the dashboard: validate an account policy without saving it, and explain what a policy (the
// saved one, or a draft) and the emergency switches would decide for a sample call. Nothing is recorded or asked.
import {
  PolicyExplainRequest,
  PolicyExplanation,
  PolicyValidateRequest,
  PolicyValidation,
} from "../../protocol/dashboard.ts";
import { ApiError } from "../errors.ts";
import { hubFor } from "../hub/call.ts";
import { compileAccountPolicy, edgeVerdict } from "../hub/edge-policy.ts";
import { loadShellParser } from "../shims/mvdan-sh-deferred.ts";
import { apiRoute, json, jsonRequest, routeGroup } from "./define.ts";

export const policyToolRoutes = routeGroup()
  .openapi(
    apiRoute("explain_policy", {
      method: "post",
      path: "/v1/policy/validate",
      summary: "Check a policy text without saving it",
      request: jsonRequest(PolicyValidateRequest),
      responses: { 200: json("Whether it loads, and every load error.", PolicyValidation) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      await loadShellParser();
      const compiled = compileAccountPolicy(body.policy);
      return c.json({ ok: compiled.ok, errors: compiled.ok ? [] : compiled.errors }, 200);
    },
  )
  .openapi(
    apiRoute("explain_policy", {
      method: "post",
      path: "/v1/policy/explain",
      summary:
        "What the account policy (or a draft) and the emergency controls would decide for a sample call",
      request: jsonRequest(PolicyExplainRequest),
      responses: { 200: json("The verdict, nothing recorded.", PolicyExplanation) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const [saved, emergency] = await Promise.all([hub.accountPolicy(caller), hub.emergency(caller)]);
      await loadShellParser();
      const compiled = compileAccountPolicy(body.policy ?? saved?.text);
      if (!compiled.ok)
        throw new ApiError(400, "validation_failed", "The policy does not load.", {
          details: compiled.errors,
        });
      const verdict = edgeVerdict(
        compiled.policy,
        {
          call_id: "explain",
          session_id: "explain",
          agent: { id: body.agent ?? "explain", name: body.agent ?? "explain" },
          tool: body.tool,
          input: body.input,
          ...(body.cwd ? { cwd: body.cwd } : {}),
        },
        emergency,
      );
      const { record } = verdict;
      return c.json(
        {
          action: verdict.action,
          rule: record.rule,
          layer: record.layer,
          risk: record.risk,
          capability: record.capability,
          scope: record.scope.summary,
          message: record.message ?? null,
        },
        200,
      );
    },
  );
