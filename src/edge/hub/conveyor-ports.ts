// How UserHub plugs the conveyor in: D1, egress from the Worker's config, emergency controls, the
// approval queue for proposals that need a person, the one alarm, and the dashboards' sockets.

import { matchConveyorGrants } from "../../policy/conveyor-grants.ts";
import type { ServerMessage } from "../../protocol/socket.ts";
import { writeAuditBatch } from "../audit/audit-log.ts";
import { newId } from "../auth/crypto.ts";
import { connectorDeps } from "../connectors/wiring.ts";
import { egressConfig } from "../conveyor/egress/config.ts";
import { createEgress } from "../conveyor/egress/guard.ts";
import { toolRegistry } from "../conveyor/registry.ts";
import type { ConveyorGrants, ConveyorPorts } from "../conveyor/runtime.ts";
import type { CompanionRunner } from "../conveyor/tools/companion-run.ts";
import { openDb } from "../db/client.ts";
import { notifyMessage } from "../push/send.ts";
import { wakeTurnOf } from "../runtime/turn-events.ts";
import type { HubEngine } from "./engine.ts";
import { grantCreatedAudit, grantUsedAudit } from "./grant-audit.ts";
import { CONVEYOR_AGENT } from "./grant-store.ts";
import type { HubContext } from "./hub-context.ts";
import { SAFETY_DELAY_MS } from "./outbox.ts";
import {
  addWakeup,
  insertProposalPrompt,
  nextWakeup,
  removeWakeup,
  takeDueWakeups,
} from "./proposal-prompts.ts";
import type { AlarmSource } from "./schedule.ts";

export function conveyorPorts(deps: {
  env: Env;
  sql: SqlStorage;
  engine: HubEngine;
  userId: () => string;
  toDashboards: (message: ServerMessage) => void;
  companionRunner?: CompanionRunner;
}): ConveyorPorts {
  const { env, sql, engine } = deps;
  const db = openDb(env.DB);
  /** Outbox rows of run audit not sent yet (see queueAudit). */
  const runAudit = new Set<string>();
  return {
    db,
    userId: deps.userId,
    grants: conveyorGrants(engine.ctx),
    egress: createEgress(egressConfig(env)),
    registry: toolRegistry({
      connectors: connectorDeps(env),
      ...(deps.companionRunner ? { companionRunner: deps.companionRunner } : {}),
    }),
    emergency: () => engine.ctx.settings.emergency(),
    newPromptId: () => newId("prm"),
    async openPrompt(view, promptId) {
      const prompt = insertProposalPrompt(sql, engine.ctx.prompts, view, promptId, Date.now());
      deps.toDashboards({ type: "capability_prompt", data: engine.ctx.promptCard(prompt) });
      // Only its expiry is new: an alarm already armed before it needs no re-reading of every deadline.
      await engine.ctx.schedule.armBy(prompt.expires_at);
    },
    async wakeAt(at) {
      addWakeup(sql, at);
      await engine.ctx.schedule.armBy(at);
    },
    async withdrawWake(at) {
      removeWakeup(sql, at);
      await engine.ctx.schedule.relax();
    },
    announce: (view) => {
      deps.toDashboards({ type: "proposal_updated", data: view });
      // A hosted turn waiting on this proposal continues once it settles.
      void wakeTurnOf(env, db, view);
    },
    audit: (entries) => writeAuditBatch(db, entries),
    // A run's step audit waits in the hub's outbox (durable with the hub) and leaves with the run's last
    // step as one batch; if the run never gets there, the outbox's alarm drains it.
    queueAudit: (entries) => {
      const { ctx } = engine;
      const mark = ctx.outbox.mark();
      const now = Date.now();
      ctx.ports.transaction(() => ctx.audit(entries, now));
      for (const id of ctx.outbox.idsSince(mark)) runAudit.add(id);
      ctx.schedule
        .armBy(now + SAFETY_DELAY_MS)
        .catch((error: unknown) => console.error("[UserHub.schedule]", error));
    },
    takeRunAudit: () => {
      const ids = [...runAudit];
      runAudit.clear();
      return engine.ctx.outbox.take(ids);
    },
    flushRunAudit: async () => {
      const ids = [...runAudit];
      runAudit.clear();
      await engine.ctx.outbox.sendIds(ids);
    },
    notifyDashboards: async (title, body, id) => {
      deps.toDashboards({ type: "notification", data: { id, title, body } });
      // And to the person's phones that are not looking (Web Push); a push failure never fails the effect.
      await notifyMessage(env, db, deps.userId(), { title, body, id }).catch((error: unknown) =>
        console.error("[conveyor.notify] push failed:", error instanceof Error ? error.message : error),
      );
    },
  };
}

/** Proposal grants live in the hub's one grant store: the same list, matcher input and revocation as agent grants. */
function conveyorGrants(ctx: HubContext): ConveyorGrants {
  return {
    async match(key) {
      await ctx.grants.load();
      return matchConveyorGrants(ctx.grants.conveyorRules(), key);
    },
    async save(key, effect, by, promptId, now) {
      await ctx.grants.load();
      ctx.ports.transaction(() => {
        const meta = { createdAt: now, createdByDevice: by.deviceId, promptId };
        const { rows, outbox } = ctx.grants.addConveyor(key, effect, meta);
        ctx.outbox.add(outbox, now);
        ctx.audit(
          rows.map((g) => grantCreatedAudit(g, "proposal", by, now)),
          now,
        );
      });
      await ctx.flush();
    },
    async used(hit, proposalId, now) {
      ctx.ports.transaction(() => {
        ctx.grants.touch(hit.rule.id, now);
        const g = {
          id: hit.rule.id,
          userId: ctx.ports.userId(),
          agentId: CONVEYOR_AGENT,
          effect: hit.effect,
        };
        ctx.audit([grantUsedAudit(g, "proposal", proposalId, now)], now);
      });
      ctx.flushSoon(now);
    },
  };
}

/** The conveyor's wakeups (its `wakeAt`) on the hub's one alarm: its backstop runs when one of them is due. */
export function conveyorAlarm(sql: SqlStorage, conveyor: { onAlarm(): Promise<void> }): AlarmSource {
  return {
    name: "conveyor",
    nextWake: () => nextWakeup(sql),
    async onAlarm(now) {
      if (takeDueWakeups(sql, now) > 0) await conveyor.onAlarm();
    },
  };
}
