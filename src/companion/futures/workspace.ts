// One watched workspace: its index, causal fingerprints, futures and the single command warm it may run.
import { createHash } from "node:crypto";
import { basename } from "node:path";
import type { WorkspaceFutureStats } from "../../protocol/futures.ts";
import type { CommandFuture } from "./command-futures.ts";
import { CausalVersions } from "./fingerprints.ts";
import type { ReadFuture } from "./read-futures.ts";
import { FutureStats } from "./stats.ts";
import { isCookiePath, type WorkspaceWatcher, watchWorkspace } from "./watcher.ts";
import { WorkspaceIndex } from "./workspace-index.ts";

export type Future = ReadFuture | CommandFuture;

/** Futures kept per workspace; the oldest go first. */
const MAX_FUTURES = 256;

export class Workspace {
  readonly root: string;
  readonly id: string;
  readonly index: WorkspaceIndex;
  readonly versions = new CausalVersions();
  readonly stats = new FutureStats();
  readonly #futures = new Map<string, Future>();
  #watcher: WorkspaceWatcher | undefined;
  /** The running command warm, if any: one per workspace, killed when the agent starts to mutate. */
  warming: { command: string; controller: AbortController; done: Promise<void> } | undefined;
  /** Commands waiting for the running warm to finish (deduplicated, short). */
  readonly queue: string[] = [];
  lastUsed = Date.now();
  readonly #log: (line: string) => void;
  /** Called after any change the watcher reports (not the barrier's own cookies). */
  readonly #moved: () => void;

  private constructor(root: string, log: (line: string) => void, moved: () => void) {
    this.root = root;
    this.#moved = moved;
    this.id = createHash("sha256").update(root).digest("hex").slice(0, 16);
    this.index = new WorkspaceIndex(root);
    this.#log = log;
  }

  /** Starts the watcher before the index walk, so nothing that changes during the walk is missed. */
  static async open(
    root: string,
    log: (line: string) => void,
    moved: () => void = () => {},
  ): Promise<Workspace> {
    const ws = new Workspace(root, log, moved);
    ws.#watcher = await watchWorkspace(root, {
      changed: (rel, kind) => ws.#onChange(rel, kind),
      overflow: (reason) => ws.#onOverflow(reason),
    });
    await ws.index.build();
    return ws;
  }

  /** The barrier: every change made before this call has reached the fingerprints once it resolves. */
  async sync(): Promise<boolean> {
    try {
      await this.#watcher?.sync();
      return this.#watcher?.alive ?? false;
    } catch {
      return false;
    }
  }

  #onChange(relative: string, kind: "file" | "tree"): void {
    if (isCookiePath(relative)) return;
    this.versions.changed(relative, kind);
    this.#moved();
    void this.index.refresh(relative);
  }

  #onOverflow(reason: string): void {
    this.stats.overflows++;
    this.versions.overflow(reason);
    this.#moved();
    // Command futures are now unverifiable; read futures re-stat on their own, but start clean anyway.
    this.#futures.clear();
    this.#log(`precog: ${this.root}: treating everything as changed (${reason})`);
  }

  /** Simulates what the kernel does when its queue overflows (tests and fault drills). */
  injectOverflow(reason = "injected overflow"): void {
    this.#onOverflow(reason);
  }

  get(key: string): Future | undefined {
    return this.#futures.get(key);
  }

  put(key: string, future: Future): void {
    this.#futures.delete(key);
    this.#futures.set(key, future);
    while (this.#futures.size > MAX_FUTURES) {
      const oldest = this.#futures.keys().next().value;
      if (oldest === undefined) break;
      this.#futures.delete(oldest);
    }
  }

  drop(key: string): void {
    this.#futures.delete(key);
  }

  keys(): string[] {
    return [...this.#futures.keys()];
  }

  futures(): Future[] {
    return [...this.#futures.values()];
  }

  /** Kills the running warm and forgets the queue (the agent started to change the workspace). */
  cancelWarms(): boolean {
    this.queue.length = 0;
    if (!this.warming) return false;
    this.warming.controller.abort();
    return true;
  }

  close(): void {
    this.cancelWarms();
    this.#watcher?.close();
    this.#futures.clear();
  }

  statsView(): WorkspaceFutureStats {
    return {
      workspaceId: this.id,
      name: basename(this.root).slice(0, 200),
      files: this.index.size,
      futures: this.#futures.size,
      overflows: this.stats.overflows,
      classes: this.stats.snapshot(),
    };
  }
}
