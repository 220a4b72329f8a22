// Proposals: create (idempotent by key), list, read, and run an approved one (a retry or a workflow step).
import { z } from "zod";
import { CreateProposalRequest, ProposalListQuery, ProposalView } from "../../protocol/conveyor.ts";
import * as store from "../conveyor/proposals.ts";
import { openDb } from "../db/client.ts";
import { notFound } from "../errors.ts";
import { hubFor, unwrap } from "../hub/call.ts";
import { ProposeResult } from "../hub/result.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

export const ProposalParams = z.object({
  id: z.string().regex(/^prp_[A-Za-z0-9_-]{16}$/, "must be a proposal id (prp_…)"),
});
const ProposalOne = z.object({ proposal: ProposalView });
const ProposalList = z.object({ proposals: z.array(ProposalView) });

export const proposalRoutes = routeGroup()
  .openapi(
    apiRoute("propose_actions", {
      method: "post",
      path: "/v1/proposals",
      summary: "Propose a side effect (the same key and args answer the same proposal)",
      request: jsonRequest(CreateProposalRequest),
      responses: {
        201: json(
          "Created: PENDING for a person, or already APPROVED/REJECTED by policy (then run).",
          ProposalOne,
        ),
        200: json("This key already names a proposal with these args.", ProposalOne),
        409: problem("idempotency_conflict: the key names a proposal with other args."),
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const auth = c.get("auth");
      const { hub, caller } = hubFor(c.env, auth);
      const source = { kind: auth.role === "companion" ? "companion" : "api", ref: auth.deviceId } as const;
      const { view, created } = unwrap(ProposeResult.parse(await hub.propose(caller, body, source)));
      return c.json({ proposal: view }, created ? 201 : 200);
    },
  )
  .openapi(
    apiRoute("read_proposals", {
      method: "get",
      path: "/v1/proposals",
      summary: "Proposals, newest first",
      request: { query: ProposalListQuery },
      responses: { 200: json("Proposal views.", ProposalList) },
    }),
    async (c) => {
      const { state, limit } = c.req.valid("query");
      const rows = await store.list(openDb(c.env.DB), c.get("auth").userId, state, limit);
      return c.json({ proposals: rows.map((row) => store.proposalView(row)) }, 200);
    },
  )
  .openapi(
    apiRoute("read_proposals", {
      method: "get",
      path: "/v1/proposals/{id}",
      summary: "One proposal, with its execution envelope once it ran",
      request: { params: ProposalParams },
      responses: { 200: json("The proposal.", ProposalOne), 404: problem("No such proposal.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const row = await store.byId(openDb(c.env.DB), c.get("auth").userId, id);
      if (!row) throw notFound(`No proposal ${id} on this account.`);
      return c.json({ proposal: store.proposalView(row) }, 200);
    },
  )
  .openapi(
    apiRoute("run_approved_proposals", {
      method: "post",
      path: "/v1/proposals/{id}/execute",
      summary: "Run an approved proposal exactly once, or join its run; answers the final proposal",
      request: { params: ProposalParams },
      responses: {
        200: json("The proposal after its run (EXECUTED, FAILED or PARTIAL).", ProposalOne),
        404: problem("No such proposal."),
        409: problem("proposal_not_pending (not approved) or idempotency_key_in_use."),
      },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const { hub, caller } = hubFor(c.env, c.get("auth"));
      return c.json({ proposal: ProposalView.parse(unwrap(await hub.executeProposal(caller, id))) }, 200);
    },
  );
