// The audit log: filtered, cursor-paginated reads, NDJSON export, and companions' local decisions.
import { and, desc, eq, gte, lt, lte, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { AuditPage, AuditQuery, LocalDecisionBatch } from "../../protocol/audit.ts";
import { REDACTION_NOTE } from "../../protocol/redaction.ts";
import { AuditAccepted } from "../../protocol/rest.ts";
import { writeAuditBatch } from "../audit/audit-log.ts";
import { base64url } from "../auth/crypto.ts";
import { openDb } from "../db/client.ts";
import { auditLog } from "../db/schema.ts";
import { ApiError } from "../errors.ts";
import { hubFor } from "../hub/call.ts";
import { apiRoute, json, jsonRequest, routeGroup } from "./define.ts";

type AuditRow = typeof auditLog.$inferSelect;
/** Rows hold redacted JSON objects written by audit-log.ts; anything else shows as empty. */
const StoredDetails = z.record(z.string(), z.unknown()).catch({});

function encodeCursor(row: AuditRow): string {
  return base64url(new TextEncoder().encode(`${row.at}|${row.id}`));
}

function decodeCursor(cursor: string): { at: number; id: string } {
  try {
    const text = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const [at, id] = text.split("|");
    if (!at || !id || !Number.isFinite(Number(at))) throw new Error("shape");
    return { at: Number(at), id };
  } catch {
    throw new ApiError(400, "validation_failed", "Invalid cursor: pass next_cursor from a previous page.", {
      details: [{ path: "cursor", message: "not a cursor this API issued" }],
    });
  }
}

function present(row: AuditRow) {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    device_id: row.deviceId,
    actor: row.actor,
    event: row.event,
    target: row.target,
    agent_id: row.agentId,
    decision: row.decision,
    details: StoredDetails.parse(JSON.parse(row.details)),
  };
}

export const auditRoutes = routeGroup()
  .openapi(
    apiRoute("read_audit", {
      method: "get",
      path: "/v1/audit",
      summary: "The audit log, newest first (JSON pages or NDJSON export)",
      request: { query: AuditQuery },
      responses: {
        200: {
          description:
            "A page of events. With format=ndjson the body is application/x-ndjson instead: one event per line, each with redaction markers.",
          content: {
            "application/json": { schema: AuditPage },
            "application/x-ndjson": { schema: z.string() },
          },
          headers: {
            "X-Next-Cursor": {
              description: "NDJSON only: the cursor of the next page.",
              schema: { type: "string" },
            },
          },
        },
      },
    }),
    async (c) => {
      const query = c.req.valid("query");
      const auth = c.get("auth");
      // Read your own writes: the hub's outbox sends what it holds to D1 before D1 is read.
      const { hub, caller } = hubFor(c.env, auth);
      await hub.flushOutbox(caller);
      const filters: (SQL | undefined)[] = [eq(auditLog.userId, auth.userId)];
      if (query.from) filters.push(gte(auditLog.at, Date.parse(query.from)));
      if (query.to) filters.push(lte(auditLog.at, Date.parse(query.to)));
      if (query.event) filters.push(eq(auditLog.event, query.event));
      if (query.agent) filters.push(eq(auditLog.agentId, query.agent));
      if (query.decision) filters.push(eq(auditLog.decision, query.decision));
      if (query.cursor) {
        const { at, id } = decodeCursor(query.cursor);
        filters.push(or(lt(auditLog.at, at), and(eq(auditLog.at, at), lt(auditLog.id, id))));
      }
      const rows = await openDb(c.env.DB)
        .select()
        .from(auditLog)
        .where(and(...filters))
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(query.limit + 1);
      const page = rows.slice(0, query.limit);
      const last = page[page.length - 1];
      const nextCursor = rows.length > query.limit && last ? encodeCursor(last) : null;
      if (query.format === "ndjson") {
        const lines = page.map((row) => JSON.stringify({ ...present(row), redaction: REDACTION_NOTE }));
        if (nextCursor) c.header("X-Next-Cursor", nextCursor);
        c.header("Content-Disposition", 'attachment; filename="airlock-audit.ndjson"');
        // Hono types a route's responses as JSON only; the NDJSON export is this route's second media type.
        return c.body(lines.length ? `${lines.join("\n")}\n` : "", 200, {
          "Content-Type": "application/x-ndjson",
        }) as never;
      }
      return c.json({ events: page.map(present), next_cursor: nextCursor }, 200);
    },
  )
  .openapi(
    apiRoute("report_local_decisions", {
      method: "post",
      path: "/v1/audit/events",
      summary: "A companion's local decisions, flushed when it reconnects",
      request: jsonRequest(LocalDecisionBatch),
      responses: { 202: json("Recorded.", AuditAccepted) },
    }),
    async (c) => {
      const { events } = c.req.valid("json");
      const auth = c.get("auth");
      await writeAuditBatch(
        openDb(c.env.DB),
        events.map((e) => ({
          userId: auth.userId,
          deviceId: auth.deviceId,
          actor: `companion:${auth.deviceId}`,
          event: "policy.decision",
          target: e.call_id,
          agentId: e.agent_id,
          decision: e.action,
          at: Date.parse(e.at),
          details: {
            call_ids: [e.call_id],
            session_id: e.session_id,
            agent_id: e.agent_id,
            tool: e.tool,
            capability: e.capability,
            risk: e.risk,
            decision: e.action,
            layer: e.layer,
            rule: e.rule,
            source: e.source,
            policy_mode: e.policy_mode ?? "prompt",
            scope_hashes: [e.scope_hash],
            ...(e.ungated ? { ungated: true } : {}),
          },
        })),
      );
      // Saved grants the companion decided by locally: their last use, and a grant.used row each.
      const uses = events.flatMap((e) =>
        e.source === "grant" && e.grant_id
          ? [{ id: e.grant_id, call_id: e.call_id, at: Date.parse(e.at) }]
          : [],
      );
      if (uses.length) {
        const { hub, caller } = hubFor(c.env, auth);
        await hub.grantsUsedLocally(caller, uses);
      }
      return c.json({ accepted: events.length }, 202);
    },
  );
