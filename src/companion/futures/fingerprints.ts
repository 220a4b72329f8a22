// Causal fingerprints kept current by the watcher: one version counter per command class, bumped when any
// file in its causal set changes, and an epoch that ends every fingerprint at once (overflow, watcher loss).
//
// A future records (epoch, version) before its command starts; it is valid while both are unchanged. A file
// changed and changed back still counts as changed: conservative, and never stale. Serve-time cost is the
// barrier plus a map lookup; the per-event cost is one glob test per class (O(changed files)).
import { matchesGlob } from "node:path";

export interface Fingerprint {
  epoch: number;
  version: number;
}

// A glob starting with **/ also matches at the root; a glob without a slash names a root file (package.json).
export function matchesAny(globs: readonly string[], rel: string): boolean {
  return globs.some((glob) => matchesGlob(rel, glob));
}

export class CausalVersions {
  #epoch = 0;
  readonly #versions = new Map<string, number>();
  readonly #classes = new Map<string, readonly string[]>();
  #lastOverflow: string | null = null;

  get epoch(): number {
    return this.#epoch;
  }

  get lastOverflow(): string | null {
    return this.#lastOverflow;
  }

  /** Registers a class's causal globs (idempotent). */
  track(classId: string, causal: readonly string[]): void {
    if (!this.#classes.has(classId)) this.#classes.set(classId, causal);
  }

  current(classId: string): Fingerprint {
    return { epoch: this.#epoch, version: this.#versions.get(classId) ?? 0 };
  }

  /**
   * One changed path. `tree`: a directory was created, renamed or deleted (its files get no events of their
   * own), or the path is gone and nobody knows what it was; every fingerprinted class counts it as changed.
   */
  changed(relative: string, kind: "file" | "tree" = "file"): void {
    for (const [id, causal] of this.#classes) {
      if (kind === "tree" || matchesAny(causal, relative)) {
        this.#versions.set(id, (this.#versions.get(id) ?? 0) + 1);
      }
    }
  }

  /** The watcher could not say what changed: every fingerprint ends. */
  overflow(reason: string): void {
    this.#epoch++;
    this.#lastOverflow = reason;
  }

  isCurrent(classId: string, fp: Fingerprint): boolean {
    const now = this.current(classId);
    return now.epoch === fp.epoch && now.version === fp.version;
  }
}
