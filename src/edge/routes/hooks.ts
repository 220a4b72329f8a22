// Webhook triggers: management (approvers only) and signed deliveries, POST /v1/hooks/{id}.
import type { Context } from "hono";
import { z } from "zod";
import {
  CreateHookRequest,
  DeliveryAccepted,
  HookAction,
  HookView,
  HookWithSecret,
  RotateHookRequest,
} from "../../protocol/conveyor.ts";
import { writeAudit } from "../audit/audit-log.ts";
import { auditDeviceAction } from "../audit/device-action.ts";
import { sha256Hex } from "../auth/crypto.ts";
import { hashOf } from "../conveyor/canonical.ts";
import * as hookStore from "../conveyor/hook-store.ts";
import { toolRegistry } from "../conveyor/registry.ts";
import { DeliveryHeaders, MAX_DELIVERY_BYTES, verifyDelivery } from "../conveyor/webhooks.ts";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../env.ts";
import { ApiError, notFound } from "../errors.ts";
import { ProposeResult } from "../hub/result.ts";
import { userHub } from "../hub/stub.ts";
import { fieldProblems } from "../middleware/validate.ts";
import { createJob, derivedJobId } from "../runtime/jobs.ts";
import { startTurn } from "../runtime/turn-events.ts";
import { apiRoute, json, jsonRequest, problem, routeGroup } from "./define.ts";

const HookParams = z.object({ id: z.string().regex(/^hk_[A-Za-z0-9_-]{16}$/, "must be a hook id (hk_…)") });
const HookDeleted = z.object({ id: z.string(), deleted: z.literal(true) });

/** A hook's action is checked against its tool's schema when it is saved, not when a delivery comes. */
function checkAction(action: HookAction | undefined): void {
  if (action?.type !== "proposal") return;
  const tool = toolRegistry().get(action.tool);
  if (!tool) throw new ApiError(400, "unknown_tool", `No tool ${action.tool}.`);
  const parsed = tool.schema.safeParse(action.args);
  if (!parsed.success) {
    const problems = fieldProblems(parsed.error).map((p) => ({ ...p, path: `action.args.${p.path}` }));
    throw new ApiError(400, "validation_failed", `Invalid action args for ${action.tool}.`, {
      details: problems,
    });
  }
}

const origin = (url: string) => new URL(url).origin;

/**
 * Rejections of a real hook are audited for its owner. Requests to unknown ids are not: there is no
 * one to show them to, and writing a row per garbage request would let anyone fill the audit log.
 */
async function reject(
  c: Context<AppEnv>,
  hook: { id: string; userId: string } | undefined,
  reason: string,
  error: ApiError,
): Promise<never> {
  if (hook) {
    await writeAudit(openDb(c.env.DB), {
      userId: hook.userId,
      actor: "anonymous",
      event: "webhook.rejected",
      target: hook.id,
      details: { reason },
    });
  }
  throw error;
}

export const hookRoutes = routeGroup()
  .openapi(
    apiRoute("manage_hooks", {
      method: "post",
      path: "/v1/hooks",
      summary: "Create a webhook trigger; its whsec_ secret is shown only in this answer",
      request: jsonRequest(CreateHookRequest),
      responses: { 201: json("The hook and its secret.", HookWithSecret) },
    }),
    async (c) => {
      const auth = c.get("auth");
      const body = c.req.valid("json");
      checkAction(body.action);
      const { row, secret } = await hookStore.createHook(openDb(c.env.DB), c.env.TOKEN_PEPPER, {
        userId: auth.userId,
        name: body.name,
        action: body.action,
        deviceId: auth.deviceId,
        now: Date.now(),
      });
      await auditDeviceAction(c, "webhook.hook_created", row.id, {
        name: row.name,
        action: body.action ?? null,
      });
      return c.json({ ...hookStore.hookView(row, origin(c.req.url)), secret }, 201);
    },
  )
  .openapi(
    apiRoute("manage_hooks", {
      method: "get",
      path: "/v1/hooks",
      summary: "Webhook triggers (never their secrets)",
      responses: { 200: json("The account's hooks.", z.object({ hooks: z.array(HookView) })) },
    }),
    async (c) => {
      const rows = await hookStore.listHooks(openDb(c.env.DB), c.get("auth").userId);
      return c.json({ hooks: rows.map((r) => hookStore.hookView(r, origin(c.req.url))) }, 200);
    },
  )
  .openapi(
    apiRoute("manage_hooks", {
      method: "post",
      path: "/v1/hooks/{id}/rotate",
      summary: "A new secret; the old one keeps verifying for grace_seconds",
      request: { params: HookParams, ...jsonRequest(RotateHookRequest) },
      responses: { 200: json("The hook and its new secret.", HookWithSecret), 404: problem("No such hook.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const { grace_seconds } = c.req.valid("json");
      const db = openDb(c.env.DB);
      const row = await hookStore.liveHook(db, id, c.get("auth").userId);
      if (!row) throw notFound(`No hook ${id} on this account.`);
      const now = Date.now();
      const rotated = await hookStore.rotateHook(db, c.env.TOKEN_PEPPER, row, grace_seconds * 1000, now);
      await auditDeviceAction(c, "webhook.secret_rotated", id, { grace_seconds });
      return c.json(
        { ...hookStore.hookView(rotated.row, origin(c.req.url), now), secret: rotated.secret },
        200,
      );
    },
  )
  .openapi(
    apiRoute("manage_hooks", {
      method: "delete",
      path: "/v1/hooks/{id}",
      summary: "Delete a hook; its URL answers 404 from then on",
      request: { params: HookParams },
      responses: { 200: json("Deleted.", HookDeleted), 404: problem("No such hook.") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const db = openDb(c.env.DB);
      const row = await hookStore.liveHook(db, id, c.get("auth").userId);
      if (!row) throw notFound(`No hook ${id} on this account.`);
      await hookStore.deleteHook(db, row, Date.now());
      await auditDeviceAction(c, "webhook.hook_deleted", id);
      return c.json({ id, deleted: true as const }, 200);
    },
  )
  .openapi(
    apiRoute("public", {
      method: "post",
      path: "/v1/hooks/{id}",
      summary:
        "A delivery signed by the Standard Webhooks scheme (webhook-id, webhook-timestamp, webhook-signature)",
      description:
        "Verified with the hook's whsec_ secret (or the previous one during its grace period), 5-minute timestamp tolerance, body at most 64 KiB. A verified delivery starts the hook's action — a proposal, or a hosted job with the body as its untrusted input — never a side effect directly.",
      request: { params: z.object({ id: z.string().max(100) }) },
      responses: {
        202: json("Verified; the action (if any) was proposed.", DeliveryAccepted),
        200: json("This webhook-id was already delivered: nothing more is started.", DeliveryAccepted),
        401: problem("webhook_signature_invalid or webhook_timestamp_invalid."),
        404: problem("No such hook."),
        413: problem("Body over 64 KiB."),
      },
    }),
    async (c) => {
      const parsedId = HookParams.safeParse(c.req.param());
      const db = openDb(c.env.DB);
      const hook = parsedId.success ? await hookStore.liveHook(db, parsedId.data.id) : undefined;
      if (!hook) return reject(c, undefined, "unknown hook", notFound(`No hook ${c.req.param("id")}.`));
      const hookId = hook.id;
      const payload = await c.req.text();
      const bytes = new TextEncoder().encode(payload).byteLength;
      if (bytes > MAX_DELIVERY_BYTES) {
        return reject(
          c,
          hook,
          "body too large",
          new ApiError(413, "payload_too_large", `The body is larger than ${MAX_DELIVERY_BYTES / 1024} KiB.`),
        );
      }
      const headers = DeliveryHeaders.safeParse({
        "webhook-id": c.req.header("webhook-id"),
        "webhook-timestamp": c.req.header("webhook-timestamp"),
        "webhook-signature": c.req.header("webhook-signature"),
      });
      if (!headers.success) {
        return reject(
          c,
          hook,
          "missing or malformed headers",
          new ApiError(
            400,
            "webhook_headers_missing",
            "Send webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks).",
            {
              details: fieldProblems(headers.error),
            },
          ),
        );
      }
      const now = Date.now();
      const verdict = verifyDelivery(
        payload,
        headers.data,
        await hookStore.verifyingSecrets(c.env.TOKEN_PEPPER, hook, now),
      );
      if (!verdict.ok) {
        return reject(
          c,
          hook,
          verdict.reason === "timestamp" ? "timestamp out of tolerance" : "bad signature",
          new ApiError(
            401,
            verdict.reason === "timestamp" ? "webhook_timestamp_invalid" : "webhook_signature_invalid",
            verdict.message,
          ),
        );
      }
      const webhookId = headers.data["webhook-id"];
      const payloadHash = await sha256Hex(payload);
      const delivery = await hookStore.recordDelivery(db, { hookId, webhookId, payloadHash, now });
      const audit = {
        userId: hook.userId,
        actor: `webhook:${hookId}`,
        target: hookId,
        details: {
          webhook_id: webhookId,
          payload_sha256: payloadHash,
          bytes,
          previous_secret: verdict.secretIndex > 0,
        },
      };
      if (!delivery.fresh) {
        // A replay (or a sender's retry) of an id already seen: answered, never acted on again.
        await writeAudit(db, { ...audit, event: "webhook.duplicate" });
        const jobAction = hook.action ? HookAction.parse(JSON.parse(hook.action)).type === "job" : false;
        return c.json(
          {
            delivery_id: webhookId,
            hook_id: hookId,
            proposal_id: delivery.proposalId,
            job_id: jobAction ? await derivedJobId(hookId, webhookId) : null,
            duplicate: true,
          },
          200,
        );
      }
      await writeAudit(db, { ...audit, event: "webhook.received" });
      let proposalId: string | null = null;
      let jobId: string | null = null;
      const action = hook.action ? HookAction.parse(JSON.parse(hook.action)) : null;
      if (action?.type === "job") {
        // One job per delivery (its id follows from it); the body is its input, labelled untrusted.
        const { job } = await createJob(db, {
          id: await derivedJobId(hookId, webhookId),
          userId: hook.userId,
          task: action.task,
          trigger: { kind: "webhook", ref: hookId },
          untrustedInput: payload,
          now,
        });
        jobId = job.id;
        await writeAudit(db, {
          ...audit,
          event: "job.created",
          target: job.id,
          details: { hook_id: hookId, trigger: "webhook" },
        });
        await startTurn(c.env, job.turnId);
      } else if (action) {
        const proposed = await userHub(c.env, hook.userId).propose(
          { userId: hook.userId, deviceId: null },
          {
            tool: action.tool,
            identity: action.identity,
            args: action.args,
            // One proposal per delivery, whatever the sender retries.
            idempotency_key: `webhook:${hookId}:${(await hashOf(webhookId)).slice(0, 32)}`,
            justification: `${action.justification} (hook "${hook.name}", delivery ${webhookId.slice(0, 64)})`,
          },
          { kind: "webhook", ref: hookId },
        );
        const result = ProposeResult.parse(proposed);
        if (result.ok) {
          proposalId = result.value.view.id;
          await hookStore.linkDelivery(db, hookId, webhookId, proposalId);
        } else {
          await writeAudit(db, {
            ...audit,
            event: "webhook.action_failed",
            details: { ...audit.details, code: result.code, message: result.message },
          });
        }
      }
      return c.json(
        { delivery_id: webhookId, hook_id: hookId, proposal_id: proposalId, job_id: jobId, duplicate: false },
        202,
      );
    },
  );
