// Approvals for people: list prompts, get a confirmation token, approve or reject. Answering is approver-only.
import type { Context } from "hono";
import { ApproveRequest, ConfirmationToken, RejectRequest } from "../../protocol/prompts.ts";
import { ApprovalList, ApprovalsQuery, PromptParams, ResolvedApproval } from "../../protocol/rest.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../errors.ts";
import { hubFor, unwrap } from "../hub/call.ts";
import { assertMay } from "../middleware/authorize.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

/** Both kinds share the queue: a proposal id names its prompt (409 once it waits for nobody). */
async function promptIdOf(c: Context<AppEnv>, id: string): Promise<string> {
  if (id.startsWith("prm_")) return id;
  const { hub, caller } = hubFor(c.env, c.get("auth"));
  const promptId = await hub.promptOfProposal(caller, id);
  if (!promptId) {
    throw new ApiError(
      409,
      "proposal_not_pending",
      `Proposal ${id} is not waiting for a person (see GET /v1/proposals/${id}).`,
    );
  }
  return promptId;
}

const answerErrors = {
  404: problem("No such prompt."),
  409: problem(
    "conflict: already answered (or changed meanwhile); prompt_expired: past its deadline; prompt_withdrawn: nobody waits.",
  ),
};

export const approvalRoutes = routeGroup()
  .openapi(
    apiRoute("read_decisions", {
      method: "get",
      path: "/v1/approvals",
      summary: "Prompts: pending (approvers only) or resolved",
      description:
        "Companions may read resolved prompts (which scope the person chose); pending prompts are for approvers.",
      request: { query: ApprovalsQuery },
      responses: { 200: json("Capability-prompt events, newest first.", ApprovalList) },
    }),
    async (c) => {
      const { status, limit } = c.req.valid("query");
      const auth = c.get("auth");
      if (status === "pending") await assertMay(c, "read_prompts");
      const { hub, caller } = hubFor(c.env, auth);
      return c.json({ approvals: await hub.approvals(caller, status, limit) }, 200);
    },
  )
  .openapi(
    apiRoute(
      "answer_prompts",
      {
        method: "post",
        path: "/v1/approvals/{id}/confirm",
        summary: "A confirmation token for a high-risk approval",
        request: { params: PromptParams },
        responses: {
          201: json("Single use, short-lived, bound to the prompt's scopes.", ConfirmationToken),
          ...answerErrors,
        },
      },
      { stepUp: true },
    ),
    async (c) => {
      const id = await promptIdOf(c, c.req.valid("param").id);
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const issued = unwrap(await hub.confirm(caller, id));
      return c.json(
        { token: issued.token, expires_at: new Date(issued.expiresAt).toISOString(), prompt_id: id },
        201,
      );
    },
  )
  .openapi(
    apiRoute("answer_prompts", {
      method: "post",
      path: "/v1/approvals/{id}/approve",
      summary: "Allow once, for the session, or always",
      request: { params: PromptParams, ...jsonRequest(ApproveRequest) },
      responses: {
        200: json("The resolved prompt.", ResolvedApproval),
        ...answerErrors,
      },
    }),
    async (c) => {
      // A proposal's `prp_` id is resolved to its prompt inside the hub, in the same call.
      const id = c.req.valid("param").id;
      const body = c.req.valid("json");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const decision =
        body.scope === "once" ? "allow_once" : body.scope === "session" ? "allow_session" : "allow_always";
      const resolved = await hub.resolve(caller, id, decision, {
        confirmationToken: body.confirmation_token,
        pattern: body.pattern,
      });
      return c.json({ prompt: unwrap(resolved) }, 200);
    },
  )
  .openapi(
    apiRoute("answer_prompts", {
      method: "post",
      path: "/v1/approvals/{id}/reject",
      summary: "Deny once or always",
      request: { params: PromptParams, ...jsonRequest(RejectRequest) },
      responses: { 200: json("The resolved prompt.", ResolvedApproval), ...answerErrors },
    }),
    async (c) => {
      const id = c.req.valid("param").id;
      const body = c.req.valid("json");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      const decision = body.scope === "always" ? "deny_always" : "deny_once";
      return c.json(
        {
          prompt: unwrap(
            await hub.resolve(caller, id, decision, { pattern: body.pattern, message: body.message }),
          ),
        },
        200,
      );
    },
  );
