// Precognition's counters per workspace and class: warms, hits, misses by reason, stale rejections, time saved.
import type { FutureClassStats, FutureMissReason } from "../../protocol/futures.ts";

const STALE_REASONS: ReadonlySet<FutureMissReason> = new Set(["stale", "expired", "watcher"]);

export class FutureStats {
  readonly #classes = new Map<string, FutureClassStats>();
  overflows = 0;

  #get(cls: string): FutureClassStats {
    let s = this.#classes.get(cls);
    if (!s) {
      s = { class: cls, warms: 0, hits: 0, misses: {}, staleRejections: 0, savedMs: 0 };
      this.#classes.set(cls, s);
    }
    return s;
  }

  warmed(cls: string): void {
    this.#get(cls).warms++;
  }

  hit(cls: string, savedMs: number): void {
    const s = this.#get(cls);
    s.hits++;
    s.savedMs += Math.max(0, savedMs);
  }

  miss(cls: string, reason: FutureMissReason): void {
    const s = this.#get(cls);
    s.misses[reason] = (s.misses[reason] ?? 0) + 1;
    if (STALE_REASONS.has(reason)) s.staleRejections++;
  }

  snapshot(): FutureClassStats[] {
    return [...this.#classes.values()]
      .map((s) => ({ ...s, misses: { ...s.misses }, savedMs: Math.round(s.savedMs) }))
      .sort((a, b) => a.class.localeCompare(b.class));
  }
}
