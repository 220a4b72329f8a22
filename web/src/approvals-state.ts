// The dashboard's view of prompts: pending (soonest to expire first), cards that stay in place for a moment after
// they are settled, and the recent resolved list, merged from the socket's live events and one REST snapshot of
// the resolved list, without losing a prompt that arrives mid-sync or resurrecting one already settled.
import type { CapabilityPrompt, ResolvedPrompt } from "../../src/protocol/prompts.ts";

export const RESOLVED_LIMIT = 50;
/** A settled card keeps its place this long, so the next card never slides under a thumb mid-tap. */
export const LINGER_MS = 5_000;

export interface ApprovalsState {
  /** Cards in display order: open prompts, and settled ones still lingering (see `settled`). */
  pending: CapabilityPrompt[];
  /** Prompts on screen that were resolved, keyed by id, with when their card may collapse. */
  settled: ReadonlyMap<string, { prompt: ResolvedPrompt; until: number }>;
  resolved: ResolvedPrompt[];
  /** Prompt ids the hub replayed or sent since the last welcome; at sync, every other open card is stale. */
  seen: ReadonlySet<string>;
}

export type ApprovalsAction =
  /** A (re)connected socket said welcome; the hub now replays every pending prompt. */
  | { type: "sync_started" }
  /** The replay is over: open cards the hub did not replay were settled while the link was down. */
  | { type: "synced" }
  | { type: "resolved_snapshot"; prompts: ResolvedPrompt[] }
  /** `capability_prompt` or `prompt_updated`: insert, or replace (the batch grew). */
  | { type: "prompt"; prompt: CapabilityPrompt }
  | { type: "resolved"; prompt: ResolvedPrompt; now: number }
  /** Collapse lingering cards whose time is up. */
  | { type: "tick"; now: number };

export const emptyApprovals: ApprovalsState = {
  pending: [],
  settled: new Map(),
  resolved: [],
  seen: new Set(),
};

const byExpiry = (a: CapabilityPrompt, b: CapabilityPrompt) =>
  a.expiresAt.localeCompare(b.expiresAt) || a.promptId.localeCompare(b.promptId);
const byResolvedDesc = (a: ResolvedPrompt, b: ResolvedPrompt) => b.resolvedAt.localeCompare(a.resolvedAt);

function withResolved(list: ResolvedPrompt[], add: ResolvedPrompt[]): ResolvedPrompt[] {
  const byId = new Map(list.map((p) => [p.promptId, p]));
  for (const p of add) byId.set(p.promptId, p);
  return [...byId.values()].sort(byResolvedDesc).slice(0, RESOLVED_LIMIT);
}

/** Open prompts only (lingering settled cards excluded): what the count, title and badge show. */
export function openPrompts(state: ApprovalsState): CapabilityPrompt[] {
  return state.pending.filter((p) => !state.settled.has(p.promptId));
}

export function approvalsReducer(state: ApprovalsState, action: ApprovalsAction): ApprovalsState {
  const resolvedIds = new Set(state.resolved.map((p) => p.promptId));
  switch (action.type) {
    case "sync_started":
      return { ...state, seen: new Set() };
    case "synced": {
      const pending = state.pending.filter(
        (p) => state.settled.has(p.promptId) || state.seen.has(p.promptId),
      );
      return pending.length === state.pending.length ? state : { ...state, pending };
    }
    case "resolved_snapshot": {
      const resolved = withResolved(state.resolved, action.prompts);
      const ids = new Set(resolved.map((p) => p.promptId));
      return {
        ...state,
        resolved,
        pending: state.pending.filter((p) => state.settled.has(p.promptId) || !ids.has(p.promptId)),
      };
    }
    case "prompt": {
      const id = action.prompt.promptId;
      if (resolvedIds.has(id) || state.settled.has(id)) return state;
      const seen = new Set(state.seen).add(id);
      const at = state.pending.findIndex((p) => p.promptId === id);
      if (at >= 0) {
        // A grown batch replaces its card in place: the list never reorders under a thumb.
        const pending = state.pending.slice();
        pending[at] = action.prompt;
        return { ...state, pending, seen };
      }
      return { ...state, pending: [...state.pending, action.prompt].sort(byExpiry), seen };
    }
    case "resolved": {
      const id = action.prompt.promptId;
      const resolved = withResolved(state.resolved, [action.prompt]);
      if (!state.pending.some((p) => p.promptId === id) || state.settled.has(id)) {
        return { ...state, resolved };
      }
      const settled = new Map(state.settled);
      settled.set(id, { prompt: action.prompt, until: action.now + LINGER_MS });
      return { ...state, resolved, settled };
    }
    case "tick": {
      const done = [...state.settled.values()]
        .filter((s) => s.until <= action.now)
        .map((s) => s.prompt.promptId);
      if (!done.length) return state;
      const settled = new Map(state.settled);
      for (const id of done) settled.delete(id);
      const gone = new Set(done);
      return { ...state, settled, pending: state.pending.filter((p) => !gone.has(p.promptId)) };
    }
  }
}
