// The dashboard's prompt bookkeeping: live socket events, the hub's replay after a welcome and one resolved snapshot
// merge without losing or resurrecting prompts; settled cards stay in place for a moment.
import { describe, expect, it } from "vitest";
import type { CapabilityPrompt, ResolvedPrompt } from "../../../src/protocol/prompts.ts";
import {
  type ApprovalsAction,
  approvalsReducer,
  emptyApprovals,
  LINGER_MS,
  openPrompts,
  RESOLVED_LIMIT,
} from "../../../web/src/approvals-state.ts";

function prompt(id: string, expiresAt = "2030-01-01T00:00:30.000Z", calls = 1): CapabilityPrompt {
  const agent = { id: "agent-1", name: "Agent" };
  return {
    promptId: id,
    callIds: Array.from({ length: calls }, (_, i) => `${id}-call-${i}`),
    agent,
    extension: agent,
    sessionIds: ["s1"],
    capability: "exec",
    method: "exec",
    risk: "high",
    justification: "exec can run arbitrary commands",
    scopes: [{ kind: "command", summary: "npm publish" }],
    moreScopes: 0,
    options: ["allow_once", "allow_session", "allow_always", "deny_once", "deny_always"],
    timeoutMs: 30_000,
    createdAt: "2030-01-01T00:00:00.000Z",
    expiresAt,
    requiresConfirmation: true,
  };
}

function resolved(id: string, resolvedAt = "2030-01-01T00:00:10.000Z"): ResolvedPrompt {
  return {
    ...prompt(id),
    resolution: "allow_once",
    resolvedAt,
    decidedBy: { actor: "device:dev_x", deviceId: "dev_x" },
  };
}

const run = (...actions: ApprovalsAction[]) => actions.reduce(approvalsReducer, emptyApprovals);
const ids = (list: { promptId: string }[]) => list.map((p) => p.promptId);

describe("approvals state", () => {
  it("orders pending prompts soonest-to-expire first", () => {
    const state = run(
      { type: "prompt", prompt: prompt("late", "2030-01-01T00:01:00.000Z") },
      { type: "prompt", prompt: prompt("soon", "2030-01-01T00:00:10.000Z") },
    );
    expect(ids(state.pending)).toEqual(["soon", "late"]);
  });

  it("replaces a prompt when its batch grows (prompt_updated)", () => {
    const state = run(
      { type: "prompt", prompt: prompt("p") },
      { type: "prompt", prompt: prompt("p", undefined, 3) },
    );
    expect(state.pending).toHaveLength(1);
    expect(state.pending[0]?.callIds).toHaveLength(3);
  });

  it("keeps a resolved card in place until it has lingered, then drops it", () => {
    const state = run(
      { type: "prompt", prompt: prompt("a", "2030-01-01T00:00:10.000Z") },
      { type: "prompt", prompt: prompt("b", "2030-01-01T00:00:20.000Z") },
      { type: "resolved", prompt: resolved("a"), now: 1000 },
    );
    expect(ids(state.pending)).toEqual(["a", "b"]);
    expect(ids(openPrompts(state))).toEqual(["b"]);
    expect(ids(state.resolved)).toEqual(["a"]);
    expect(ids(approvalsReducer(state, { type: "tick", now: 1000 + LINGER_MS - 1 }).pending)).toEqual([
      "a",
      "b",
    ]);
    expect(ids(approvalsReducer(state, { type: "tick", now: 1000 + LINGER_MS }).pending)).toEqual(["b"]);
  });

  it("replaces a grown batch in place, never reordering the cards", () => {
    const state = run(
      { type: "prompt", prompt: prompt("a", "2030-01-01T00:00:10.000Z") },
      { type: "prompt", prompt: prompt("b", "2030-01-01T00:00:20.000Z") },
      { type: "prompt", prompt: prompt("a", "2030-01-01T00:00:10.000Z", 5) },
    );
    expect(ids(state.pending)).toEqual(["a", "b"]);
    expect(state.pending[0]?.callIds).toHaveLength(5);
  });

  it("never resurrects a resolved prompt from a late event or the replay", () => {
    const state = run(
      { type: "resolved", prompt: resolved("p"), now: 0 },
      { type: "sync_started" },
      { type: "prompt", prompt: prompt("p") },
      { type: "synced" },
    );
    expect(state.pending).toEqual([]);
  });

  it("after a reconnect, drops open cards the hub did not replay (settled while the link was down)", () => {
    const state = run(
      { type: "prompt", prompt: prompt("gone-while-away") },
      { type: "prompt", prompt: prompt("still-pending") },
      { type: "sync_started" },
      { type: "prompt", prompt: prompt("still-pending") },
      { type: "prompt", prompt: prompt("new") },
      { type: "synced" },
    );
    expect(ids(state.pending).sort()).toEqual(["new", "still-pending"]);
  });

  it("drops pending prompts a resolved snapshot reports as resolved", () => {
    const state = run(
      { type: "prompt", prompt: prompt("p") },
      { type: "resolved_snapshot", prompts: [resolved("p")] },
    );
    expect(state.pending).toEqual([]);
    expect(ids(state.resolved)).toEqual(["p"]);
  });

  it("lists resolved prompts newest first, deduplicated, at most the limit", () => {
    const many = Array.from({ length: RESOLVED_LIMIT + 5 }, (_, i) =>
      resolved(`r${i}`, new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString()),
    );
    const state = run(
      { type: "resolved_snapshot", prompts: many },
      { type: "resolved", prompt: resolved("r3", "2031-01-01T00:00:00.000Z"), now: 0 },
    );
    expect(state.resolved).toHaveLength(RESOLVED_LIMIT);
    expect(state.resolved[0]?.promptId).toBe("r3");
    expect(new Set(ids(state.resolved)).size).toBe(RESOLVED_LIMIT);
  });
});
