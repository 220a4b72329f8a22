// The dashboard's view of prompts: pending (soonest to expire first) and the recent resolved list, merged from the
// socket's live events and REST snapshots without losing a prompt that arrives while a snapshot is in flight.
import type { CapabilityPrompt, ResolvedPrompt } from "../../src/protocol/prompts.ts";

export const RESOLVED_LIMIT = 50;

export interface ApprovalsState {
  pending: CapabilityPrompt[];
  resolved: ResolvedPrompt[];
  /** Prompt ids the socket delivered since the last `sync_started`: alive even if a snapshot misses them. */
  fresh: ReadonlySet<string>;
}

export type ApprovalsAction =
  /** A (re)connected socket said welcome; a pending snapshot is about to be fetched. */
  | { type: "sync_started" }
  | { type: "pending_snapshot"; prompts: CapabilityPrompt[] }
  | { type: "resolved_snapshot"; prompts: ResolvedPrompt[] }
  /** `capability_prompt` or `prompt_updated`: insert, or replace (the batch grew). */
  | { type: "prompt"; prompt: CapabilityPrompt }
  | { type: "resolved"; prompt: ResolvedPrompt };

export const emptyApprovals: ApprovalsState = { pending: [], resolved: [], fresh: new Set() };

const byExpiry = (a: CapabilityPrompt, b: CapabilityPrompt) =>
  a.expiresAt.localeCompare(b.expiresAt) || a.promptId.localeCompare(b.promptId);
const byResolvedDesc = (a: ResolvedPrompt, b: ResolvedPrompt) => b.resolvedAt.localeCompare(a.resolvedAt);

function withResolved(list: ResolvedPrompt[], add: ResolvedPrompt[]): ResolvedPrompt[] {
  const byId = new Map(list.map((p) => [p.promptId, p]));
  for (const p of add) byId.set(p.promptId, p);
  return [...byId.values()].sort(byResolvedDesc).slice(0, RESOLVED_LIMIT);
}

export function approvalsReducer(state: ApprovalsState, action: ApprovalsAction): ApprovalsState {
  const resolvedIds = new Set(state.resolved.map((p) => p.promptId));
  switch (action.type) {
    case "sync_started":
      return { ...state, fresh: new Set() };
    case "pending_snapshot": {
      // The snapshot is the truth for everything older than it; prompts the socket sent since the sync began are
      // kept even if the snapshot was read before they existed. Anything already resolved stays out.
      const byId = new Map<string, CapabilityPrompt>();
      for (const p of action.prompts) byId.set(p.promptId, p);
      for (const p of state.pending) if (state.fresh.has(p.promptId)) byId.set(p.promptId, p);
      const pending = [...byId.values()].filter((p) => !resolvedIds.has(p.promptId)).sort(byExpiry);
      return { ...state, pending };
    }
    case "resolved_snapshot": {
      const resolved = withResolved(state.resolved, action.prompts);
      const ids = new Set(resolved.map((p) => p.promptId));
      return { ...state, resolved, pending: state.pending.filter((p) => !ids.has(p.promptId)) };
    }
    case "prompt": {
      if (resolvedIds.has(action.prompt.promptId)) return state;
      const pending = state.pending.filter((p) => p.promptId !== action.prompt.promptId);
      pending.push(action.prompt);
      return {
        ...state,
        pending: pending.sort(byExpiry),
        fresh: new Set(state.fresh).add(action.prompt.promptId),
      };
    }
    case "resolved":
      return {
        ...state,
        pending: state.pending.filter((p) => p.promptId !== action.prompt.promptId),
        resolved: withResolved(state.resolved, [action.prompt]),
      };
  }
}
