// Decisions on their way to the hub. A decision that saves something (allow/deny always, allow for session) is sent
// at once with an undo window: the hub holds it until its commit-at time (Undo cancels it there), so closing the page
// loses nothing. Any decision made while the link is down is queued and sent on the next welcome, and survives a
// reload (sessionStorage). One decision per prompt; the hub's refusal (already resolved, expired) is final.
import { z } from "zod";
import { PromptDecision } from "../../src/protocol/capability.ts";

/** How long the hub holds a saving decision before settling it (it cuts the window short before a deadline). */
export const UNDO_MS = 5_000;
const STORAGE_KEY = "airlock.outbox";

export type OutboxPhase = "held" | "queued" | "sending" | "sent" | "failed";

export const OutboxEntry = z.object({
  promptId: z.string(),
  decision: PromptDecision,
  confirmationToken: z.string().optional(),
  message: z.string().optional(),
  /** A wider grant pattern the person picked (one of the prompt's `grant.wider`, verbatim). */
  pattern: z.string().optional(),
  /** The undo window the hub is asked to hold it for (saving decisions). */
  undoMs: z.number().optional(),
  /** While held: when the hub commits it (local clock). */
  sendAt: z.number(),
  phase: z.enum(["held", "queued", "sending", "sent", "failed"]),
  error: z.string().optional(),
});
export type OutboxEntry = z.infer<typeof OutboxEntry>;

/** `heldUntil`: the hub holds the answer until then (local clock), when it commits unless undone. */
export type SendResult = { ok: true; heldUntil?: number } | { ok: false; final: boolean; error: string };

/** What Undo has to do: nothing left, a local cancel (never sent), or ask the hub (it holds the answer). */
export type UndoStep = "none" | "cancelled" | "ask_hub";

/** Decisions that write a grant: these get an undo window. */
export function savesSomething(decision: PromptDecision): boolean {
  return decision === "allow_always" || decision === "deny_always" || decision === "allow_session";
}

export interface OutboxStore {
  load(): string | null;
  save(text: string): void;
}

export class DecisionOutbox {
  readonly #entries = new Map<string, OutboxEntry>();
  readonly #store: OutboxStore | null;
  readonly #changed: () => void;

  constructor(changed: () => void, store: OutboxStore | null) {
    this.#changed = changed;
    this.#store = store;
    const saved = z.array(OutboxEntry).safeParse(safeJson(store?.load() ?? null));
    // After a reload nothing is mid-flight: everything unsent is queued (the hub takes a resend of the same answer
    // as the one it holds), and a held answer stays undoable until the hub commits it.
    const now = Date.now();
    for (const entry of saved.success ? saved.data : []) {
      if (entry.phase === "sent" || entry.phase === "failed") continue;
      if (entry.phase === "held" && entry.sendAt <= now) continue;
      this.#entries.set(entry.promptId, { ...entry, phase: entry.phase === "held" ? "held" : "queued" });
    }
  }

  get(promptId: string): OutboxEntry | undefined {
    return this.#entries.get(promptId);
  }

  /** Adds a decision; false if the prompt already has one that is not failed. */
  add(
    entry: Pick<OutboxEntry, "promptId" | "decision" | "confirmationToken" | "message" | "pattern">,
    now: number,
  ): boolean {
    const current = this.#entries.get(entry.promptId);
    if (current && current.phase !== "failed") return false;
    this.#set({
      ...entry,
      ...(savesSomething(entry.decision) ? { undoMs: UNDO_MS } : {}),
      sendAt: now,
      phase: "queued",
    });
    return true;
  }

  /**
   * Undo: a decision not sent yet (queued offline) is cancelled here; one the hub holds must be undone there
   * (then `undone`). Nothing to do once it was sent without a window or the window is over.
   */
  undo(promptId: string, now: number): UndoStep {
    const entry = this.#entries.get(promptId);
    if (entry?.phase === "queued") {
      this.undone(promptId);
      return "cancelled";
    }
    return entry?.phase === "held" && entry.sendAt > now ? "ask_hub" : "none";
  }

  /** The hub cancelled the held answer (or it was never sent): the card is answerable again. */
  undone(promptId: string): void {
    if (!this.#entries.delete(promptId)) return;
    this.#persist();
    this.#changed();
  }

  /** The hub would not undo it (already committed): the answer stands, with the reason on the card. */
  undoRefused(promptId: string, error: string): void {
    const entry = this.#entries.get(promptId);
    if (entry) this.#set({ ...entry, phase: "sent", error });
  }

  /** Held decisions whose window is over are committed on the hub; returns the next time to look again. */
  release(now: number): number | null {
    let next: number | null = null;
    for (const entry of this.#entries.values()) {
      if (entry.phase !== "held") continue;
      if (entry.sendAt <= now) this.#set({ ...entry, phase: "sent" });
      else next = next === null ? entry.sendAt : Math.min(next, entry.sendAt);
    }
    return next;
  }

  /** Sends every queued decision through `send` (call only while the link is live). */
  async flush(send: (entry: OutboxEntry) => Promise<SendResult>): Promise<void> {
    const queued = [...this.#entries.values()].filter((e) => e.phase === "queued");
    await Promise.all(
      queued.map(async (entry) => {
        this.#set({ ...entry, phase: "sending" });
        const result = await send(entry);
        if (result.ok && result.heldUntil !== undefined)
          this.#set({ ...entry, phase: "held", sendAt: result.heldUntil });
        else if (result.ok) this.#set({ ...entry, phase: "sent" });
        else if (result.final) this.#set({ ...entry, phase: "failed", error: result.error });
        else this.#set({ ...entry, phase: "queued", error: result.error });
      }),
    );
  }

  /** Forgets a prompt's entry once its card is gone. */
  forget(promptId: string): void {
    if (this.#entries.delete(promptId)) this.#persist();
  }

  #set(entry: OutboxEntry): void {
    this.#entries.set(entry.promptId, entry);
    this.#persist();
    this.#changed();
  }

  #persist(): void {
    if (!this.#store) return;
    const unsent = [...this.#entries.values()].filter((e) => e.phase !== "sent" && e.phase !== "failed");
    // A confirmation token is single-use and short-lived; it is never written to storage.
    this.#store.save(JSON.stringify(unsent.map(({ confirmationToken: _, ...rest }) => rest)));
  }
}

function safeJson(text: string | null): unknown {
  if (!text) return [];
  try {
    return JSON.parse(text);
  } catch {
    return [];
  }
}

export const sessionOutboxStore: OutboxStore | null =
  typeof sessionStorage === "undefined"
    ? null
    : {
        load: () => sessionStorage.getItem(STORAGE_KEY),
        save: (text) => sessionStorage.setItem(STORAGE_KEY, text),
      };
