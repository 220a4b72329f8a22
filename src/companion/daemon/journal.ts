// The durable journal of calls waiting for a person: one small JSON file per call, written atomically, so a
// daemon restart resumes them and a retried call is answered from here.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { derivedCallId } from "../../policy/call-binding.ts";
import { DecisionRequest } from "../../protocol/index.ts";
import { AgentToolCall, CompanionDecision } from "../control/tool-call.ts";

export const JournalEntry = z.object({
  call: AgentToolCall,
  /** What was (or will be) sent to the edge, so a restarted daemon can resubmit a call the edge never saw. */
  request: DecisionRequest,
  status: z.enum(["pending", "decided"]),
  submittedAt: z.string(),
  /** When the daemon stops waiting and denies (prompt timeout plus a margin). */
  deadline: z.number(),
  promptId: z.string().optional(),
  /** What the call_id is bound to (src/policy/call-binding.ts); a replay with other content never matches. */
  fingerprint: z.string().optional(),
  decision: CompanionDecision.optional(),
  decidedAt: z.string().optional(),
});
export type JournalEntry = z.infer<typeof JournalEntry>;

/** Decided entries are kept this long so a retried call (same call id) gets the same answer. */
const KEEP_DECIDED_MS = 60 * 60 * 1000;

export class Journal {
  readonly #dir: string;
  readonly #entries = new Map<string, JournalEntry>();

  constructor(stateDir: string) {
    this.#dir = join(stateDir, "calls");
    mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
  }

  #file(callId: string): string {
    return join(this.#dir, `${createHash("sha256").update(callId).digest("hex").slice(0, 40)}.json`);
  }

  /** Loads every entry; unreadable files (a crash mid-write leaves only a .tmp) are skipped. */
  load(): JournalEntry[] {
    const now = Date.now();
    for (const name of readdirSync(this.#dir)) {
      const path = join(this.#dir, name);
      if (name.endsWith(".tmp")) {
        rmSync(path, { force: true });
        continue;
      }
      try {
        const parsed = JournalEntry.safeParse(JSON.parse(readFileSync(path, "utf8")));
        if (!parsed.success) continue;
        const entry = parsed.data;
        if (entry.status === "decided" && now - statSync(path).mtimeMs > KEEP_DECIDED_MS) {
          rmSync(path, { force: true });
          continue;
        }
        this.#entries.set(entry.call.callId, entry);
      } catch {
        // skip a file another process is replacing
      }
    }
    return [...this.#entries.values()];
  }

  get(callId: string): JournalEntry | undefined {
    return this.#entries.get(callId);
  }

  /**
   * A call_id is bound to its call: a known id with other content is never answered from the journal; it
   * is decided on its own under an id derived from its content (providers reuse ids like `call_0`). The fingerprint
   * (a hash of the whole call, file contents included) is computed only when the id is known: a fresh call, every
   * call on the hot path, needs none.
   */
  bind(
    call: AgentToolCall,
    fingerprintOf: () => string,
    log: (line: string) => void,
  ): { call: AgentToolCall; known: JournalEntry | undefined } | { conflict: true } {
    const known = this.#entries.get(call.callId);
    if (!known) return { call, known };
    const fingerprint = fingerprintOf();
    if (known.fingerprint === fingerprint) return { call, known };
    log(`call id ${call.callId} was reused for a different call; deciding that call on its own`);
    const derived = { ...call, callId: derivedCallId(call.callId, fingerprint) };
    const again = this.#entries.get(derived.callId);
    if (again && again.fingerprint !== fingerprint) return { conflict: true };
    return { call: derived, known: again };
  }

  pending(): JournalEntry[] {
    return [...this.#entries.values()].filter((e) => e.status === "pending");
  }

  put(entry: JournalEntry): void {
    this.#entries.set(entry.call.callId, entry);
    const path = this.#file(entry.call.callId);
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(entry), { mode: 0o600 });
    renameSync(tmp, path);
  }

  remove(callId: string): void {
    this.#entries.delete(callId);
    rmSync(this.#file(callId), { force: true });
  }

  /** Drops decided entries past their keep time. */
  prune(): void {
    const cutoff = Date.now() - KEEP_DECIDED_MS;
    for (const entry of this.#entries.values()) {
      if (entry.status === "decided" && entry.decidedAt && Date.parse(entry.decidedAt) < cutoff) {
        this.remove(entry.call.callId);
      }
    }
  }
}
