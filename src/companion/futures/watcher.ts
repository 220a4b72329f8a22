// The workspace watcher: one inotify watch per directory (Node's non-recursive fs.watch), a sync-cookie
// barrier, and overflow reported as "everything changed".
//
// Why not Node's `recursive: true` or @parcel/watcher (both measured in bench/precog): on Linux, Node's
// recursive mode misses files created in a directory made after the watch started, which would let a stale
// future through; parcel is sound but delivers events behind a ~50 ms debounce, so every barrier would cost
// ≥ 50 ms. One watch per directory, with each new directory watched the moment its creation is seen,
// delivers an event in well under a millisecond and misses nothing (see `#addTree`).
import { type Dirent, type FSWatcher, readdirSync, watch } from "node:fs";
import { readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { lstatEntry } from "../guards/fs-entry.ts";

/** What the watcher reports: one changed path (`tree`: a directory and everything under it), or "anything". */
export interface WatchListener {
  changed(relative: string, kind: "file" | "tree"): void;
  overflow(reason: string): void;
}

export interface WorkspaceWatcher {
  /**
   * Resolves once every change made before the call has been delivered (Watchman's sync cookie); rejects
   * (after reporting an overflow) when the cookie does not come back in time.
   */
  sync(timeoutMs?: number): Promise<void>;
  close(): void;
  readonly alive: boolean;
  /** Directories under watch. */
  readonly directories: number;
}

const COOKIE_PREFIX = ".airlock-cookie-";
const DEFAULT_SYNC_TIMEOUT_MS = 1_000;
/** Trees never watched: huge, and outside every causal set (git's own files; dependency trees). */
const UNWATCHED = new Set(["node_modules", ".git"]);
/** A workspace with more directories than this is not watched (fingerprinted futures then never serve). */
export const MAX_WATCHED_DIRECTORIES = 20_000;

/**
 * The kernel drops events once max_queued_events are queued unread; an overflow therefore always follows a
 * burst of at least that many events. Seeing half that many between two barriers is treated as an overflow,
 * because libuv does not surface IN_Q_OVERFLOW to Node.
 */
async function burstLimit(): Promise<number> {
  const raw = await readFile("/proc/sys/fs/inotify/max_queued_events", "utf8").catch(() => "16384");
  const n = Number(raw.trim());
  return Math.max(256, Math.floor((Number.isFinite(n) ? n : 16384) / 2));
}

let cookieCounter = 0;

export function isCookiePath(relative: string): boolean {
  return relative.slice(relative.lastIndexOf("/") + 1).startsWith(COOKIE_PREFIX);
}

class DirectoryWatcher implements WorkspaceWatcher {
  readonly #root: string;
  readonly #listener: WatchListener;
  readonly #limit: number;
  readonly #watches = new Map<string, FSWatcher>();
  readonly #cookies = new Map<string, () => void>();
  readonly #cookieDir: string;
  #eventsSinceSync = 0;
  #alive = true;

  constructor(root: string, listener: WatchListener, limit: number, cookieDir: string) {
    this.#root = root;
    this.#listener = listener;
    this.#limit = limit;
    this.#cookieDir = cookieDir;
  }

  get alive(): boolean {
    return this.#alive;
  }

  get directories(): number {
    return this.#watches.size;
  }

  start(): void {
    this.#addTree("");
    // Cookies live in .git/ when there is one (as Watchman's do), so they never show in the working tree.
    if (this.#cookieDir !== "" && !this.#watches.has(this.#cookieDir)) this.#watchOne(this.#cookieDir);
  }

  /**
   * Watches `relDir` and every directory below it. The watch goes on before the listing, and the whole tree
   * is reported changed after: anything created before its directory was watched is counted by that report,
   * anything after by its own event.
   */
  #addTree(relDir: string): void {
    const stack = [relDir];
    while (stack.length > 0 && this.#alive) {
      const dir = stack.pop() ?? "";
      if (!this.#watchOne(dir)) continue;
      let entries: Dirent[];
      try {
        entries = readdirSync(join(this.#root, dir), { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        if (e.isDirectory() && !UNWATCHED.has(e.name)) stack.push(dir === "" ? e.name : `${dir}/${e.name}`);
      }
    }
    if (relDir !== "") this.#listener.changed(relDir, "tree");
  }

  #watchOne(dir: string): boolean {
    if (this.#watches.has(dir)) return true;
    if (this.#watches.size >= MAX_WATCHED_DIRECTORIES) {
      this.#fail(`more than ${MAX_WATCHED_DIRECTORIES} directories`);
      return false;
    }
    try {
      const w = watch(join(this.#root, dir), { persistent: false }, (_type, name) =>
        this.#onEvent(dir, name),
      );
      // A watch whose directory went away errors; by then the name may hold a new directory and watch.
      w.on("error", () => {
        if (this.#watches.get(dir) === w) this.#dropTree(dir, true);
      });
      this.#watches.set(dir, w);
      return true;
    } catch {
      // Gone already, or not readable: its parent's event covers it.
      return false;
    }
  }

  #dropTree(dir: string, report: boolean): void {
    const prefix = `${dir}/`;
    for (const [d, w] of this.#watches) {
      if (d === dir || d.startsWith(prefix)) {
        w.close();
        this.#watches.delete(d);
      }
    }
    if (report) this.#listener.changed(dir, "tree");
  }

  #onEvent(dir: string, name: string | Buffer | null): void {
    if (!this.#alive) return;
    if (name === null) {
      // The kernel could not say what changed in this directory.
      this.#listener.changed(dir, "tree");
      return;
    }
    const base = typeof name === "string" ? name : name.toString("utf8");
    const rel = dir === "" ? base : `${dir}/${base}`;
    if (dir === this.#cookieDir && base.startsWith(COOKIE_PREFIX)) {
      this.#cookies.get(base)?.();
      return;
    }
    if (dir === ".git" && this.#cookieDir === ".git") return;
    if (++this.#eventsSinceSync >= this.#limit) {
      this.#eventsSinceSync = 0;
      this.#fail(
        `more than ${this.#limit} events between two barriers (the kernel queue may have overflowed)`,
      );
      return;
    }
    if (UNWATCHED.has(base)) return;
    // Decided synchronously, so the barrier covers it.
    const info = lstatEntry(join(this.#root, rel));
    if (info?.isDirectory()) {
      // The entry itself changed (created, replaced, moved in): watch it afresh, whole subtree. A new
      // directory can reuse the old one's inode number, so "already watched" proves nothing here.
      this.#dropTree(rel, false);
      this.#addTree(rel);
      return;
    }
    if (this.#watches.has(rel)) {
      this.#dropTree(rel, true);
      return;
    }
    this.#listener.changed(rel, "file");
  }

  #fail(reason: string): void {
    this.#listener.overflow(reason);
  }

  close(): void {
    this.#alive = false;
    for (const w of this.#watches.values()) w.close();
    this.#watches.clear();
    for (const resolve of this.#cookies.values()) resolve();
    this.#cookies.clear();
  }

  async sync(timeoutMs = DEFAULT_SYNC_TIMEOUT_MS): Promise<void> {
    if (!this.#alive) throw new Error("the watcher is closed");
    const name = `${COOKIE_PREFIX}${process.pid}-${++cookieCounter}`;
    const path = join(this.#root, this.#cookieDir, name);
    let timer: NodeJS.Timeout | undefined;
    const seen = new Promise<void>((resolve, reject) => {
      this.#cookies.set(name, resolve);
      timer = setTimeout(() => reject(new Error("sync cookie did not arrive in time")), timeoutMs);
    });
    try {
      await writeFile(path, "");
      await seen;
      this.#eventsSinceSync = 0;
    } catch (error) {
      this.#fail(error instanceof Error ? error.message : String(error));
      throw error;
    } finally {
      clearTimeout(timer);
      this.#cookies.delete(name);
      void unlink(path).catch(() => undefined);
    }
  }
}

/** Watches `root` and every directory below it except node_modules/ and .git/. */
export async function watchWorkspace(root: string, listener: WatchListener): Promise<WorkspaceWatcher> {
  const git = lstatEntry(join(root, ".git"));
  const watcher = new DirectoryWatcher(root, listener, await burstLimit(), git?.isDirectory() ? ".git" : "");
  watcher.start();
  if (!watcher.alive) throw new Error(`cannot watch ${root}`);
  return watcher;
}
