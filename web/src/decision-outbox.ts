// Decisions on their way to the hub. A decision that saves something (allow/deny always, allow for session) waits
// out an undo window first; any decision made while the link is down is queued and sent on the next welcome, and
// survives a reload (sessionStorage). One decision per prompt; the hub's refusal (already resolved, expired) is final.
import { z } from "zod";
import { PromptDecision } from "../../src/protocol/capability.ts";

/** How long a saving decision can be undone before it is sent. */
export const UNDO_MS = 5_000;
/** A saving decision is sent at once when the prompt would expire this soon after the undo window. */
const EXPIRY_MARGIN_MS = 2_000;
const STORAGE_KEY = "airlock.outbox";

export type OutboxPhase = "held" | "queued" | "sending" | "sent" | "failed";

export const OutboxEntry = z.object({
  promptId: z.string(),
  decision: PromptDecision,
  confirmationToken: z.string().optional(),
  message: z.string().optional(),
  /** A wider grant pattern the person picked (one of the prompt's `grant.wider`, verbatim). */
  pattern: z.string().optional(),
  /** While held: when the undo window ends. */
  sendAt: z.number(),
  phase: z.enum(["held", "queued", "sending", "sent", "failed"]),
  error: z.string().optional(),
});
export type OutboxEntry = z.infer<typeof OutboxEntry>;

export type SendResult = { ok: true } | { ok: false; final: boolean; error: string };

/** Decisions that write a grant: these get the undo window. */
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
    // After a reload nothing is mid-flight and no undo window survives: everything unsent is queued.
    for (const entry of saved.success ? saved.data : []) {
      if (entry.phase === "sent" || entry.phase === "failed") continue;
      this.#entries.set(entry.promptId, { ...entry, phase: "queued" });
    }
  }

  get(promptId: string): OutboxEntry | undefined {
    return this.#entries.get(promptId);
  }

  /** Adds a decision; false if the prompt already has one that is not failed. */
  add(
    entry: Pick<OutboxEntry, "promptId" | "decision" | "confirmationToken" | "message" | "pattern">,
    now: number,
    expiresAt: number,
  ): boolean {
    const current = this.#entries.get(entry.promptId);
    if (current && current.phase !== "failed") return false;
    const hold = savesSomething(entry.decision) && expiresAt - now > UNDO_MS + EXPIRY_MARGIN_MS;
    this.#set({ ...entry, sendAt: hold ? now + UNDO_MS : now, phase: hold ? "held" : "queued" });
    return true;
  }

  /** Cancels a decision still in its undo window (or still queued offline). */
  undo(promptId: string): boolean {
    const entry = this.#entries.get(promptId);
    if (!entry || (entry.phase !== "held" && entry.phase !== "queued")) return false;
    this.#entries.delete(promptId);
    this.#persist();
    this.#changed();
    return true;
  }

  /** Moves held decisions whose undo window is over to the queue; returns the next time to look again. */
  release(now: number): number | null {
    let next: number | null = null;
    for (const entry of this.#entries.values()) {
      if (entry.phase !== "held") continue;
      if (entry.sendAt <= now) this.#set({ ...entry, phase: "queued" });
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
        if (result.ok) this.#set({ ...entry, phase: "sent" });
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
