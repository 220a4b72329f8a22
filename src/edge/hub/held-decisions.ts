// Answers waiting out their undo window on the hub. The dashboard sends an answer at once with an undo window; the
// hub checks it then, keeps it here until its commit-at time and settles it from the alarm, unless Undo cancels it
// first. The page can close inside the window: the answer is already on the hub, so nothing is lost.
import type { PromptDecision } from "../../protocol/capability.ts";
import type { ResolvedPrompt } from "../../protocol/prompts.ts";
import type { HeldDecision } from "../../protocol/socket.ts";
import type { HeldRow } from "./held-store.ts";
import type { Decider, HubContext } from "./hub-context.ts";
import type { AnswerOptions, Resolver } from "./resolution.ts";
import { failure, type HubResult } from "./result.ts";
import { DUE_SLACK_MS } from "./schedule.ts";

/** A held answer settles at least this long before its prompt's deadline, so a slightly late alarm still makes it. */
export const HOLD_EXPIRY_MARGIN_MS = 1_000;

const iso = (ms: number) => new Date(ms).toISOString();

/** Holding, undoing and committing answers with an undo window. */
export class UndoWindows {
  private readonly ctx: HubContext;
  private readonly resolver: Resolver;

  constructor(ctx: HubContext, resolver: Resolver) {
    this.ctx = ctx;
    this.resolver = resolver;
  }

  /**
   * Checks the answer now (a refusal comes back at once, nothing held) and holds it for `undoMs`, cut short so it
   * settles before the prompt's deadline; a window that would end at once settles at once.
   */
  async hold(
    promptId: string,
    decision: PromptDecision,
    by: Decider,
    options: AnswerOptions,
    undoMs: number,
    now = Date.now(),
  ): Promise<HubResult<ResolvedPrompt | HeldDecision>> {
    const { ctx } = this;
    const existing = ctx.held.get(promptId);
    if (existing) {
      // The same answer sent again (a reconnect resends it): the window it already has stands.
      if (existing.decision === decision && existing.device_id === by.deviceId)
        return { ok: true, value: heldView(existing) };
      return failure(
        409,
        "conflict",
        `Prompt ${promptId} already has an answer (${existing.decision}) waiting out its undo window; undo it first.`,
      );
    }
    const vetted = await this.resolver.vet(promptId, decision, by, options, now);
    if (!vetted.ok) return vetted;
    const commitAt = Math.min(now + undoMs, vetted.value.prompt.expires_at - HOLD_EXPIRY_MARGIN_MS);
    if (commitAt <= now + DUE_SLACK_MS) return this.resolver.commit(vetted.value, decision, by, now);
    const row: HeldRow = {
      prompt_id: promptId,
      decision,
      pattern: vetted.value.pattern ?? null,
      note: vetted.value.note ?? null,
      fingerprint: vetted.value.fingerprint,
      actor: by.actor,
      device_id: by.deviceId,
      commit_at: commitAt,
      created_at: now,
    };
    ctx.held.insert(row);
    await ctx.schedule.arm(now);
    return { ok: true, value: heldView(row) };
  }

  /** Cancels a held answer: the prompt stays open, as if it had never been answered. */
  undo(promptId: string): HubResult<{ promptId: string }> {
    if (this.ctx.held.remove(promptId)) return { ok: true, value: { promptId } };
    const prompt = this.ctx.prompts.get(promptId);
    if (!prompt) return failure(404, "not_found", `No prompt ${promptId}.`);
    return failure(
      409,
      "conflict",
      prompt.status === "open"
        ? `Prompt ${promptId} has no answer waiting to be undone.`
        : `Too late to undo: prompt ${promptId} is already settled (${prompt.resolution}).`,
    );
  }

  /** From the alarm: settles every held answer whose window is over (before expired prompts are timed out). */
  async commitDue(now: number): Promise<void> {
    for (const row of this.ctx.held.due(now + DUE_SLACK_MS)) {
      this.ctx.held.remove(row.prompt_id);
      const prompt = this.ctx.prompts.get(row.prompt_id);
      // Answered elsewhere meanwhile (another device, a withdrawal): that answer stands.
      if (!prompt || prompt.status !== "open" || prompt.expires_at <= now) continue;
      const by = { actor: row.actor, deviceId: row.device_id };
      const vetted = {
        prompt,
        fingerprint: row.fingerprint,
        pattern: row.pattern ?? undefined,
        note: row.note ?? undefined,
      };
      const result = await this.resolver.commit(vetted, row.decision, by, now);
      if (!result.ok) console.warn("[UserHub.undo] a held answer was not settled:", result.message);
    }
  }
}

function heldView(row: HeldRow): HeldDecision {
  return { held: true, promptId: row.prompt_id, decision: row.decision, commitAt: iso(row.commit_at) };
}
