// Shell-only replay of a served command future (the http hook's one-request serve): the daemon writes the
// future's output to write-once files and the hook rewrites the command into a few shell words that claim them
// once (an atomic rename), `cat` them to their streams and leave the original exit status. No Node start on the
// served path; a replay that is gone (used, dropped because the workspace changed, expired) falls back to the
// `airlock futures serve` rewrite, which re-validates and serves or runs the original.
//
// Layout: <AIRLOCK_HOME>/replay (0700, the user's own, never a symlink) / <32 hex random id> (0700) / 0, 1, …
// (0600, one file per run of same-stream output, created O_EXCL|O_NOFOLLOW). The id is unguessable and used
// once, so a name planted in advance can never be the one a hook hands out, and a second run of the same
// rewritten command finds nothing to replay.
import { randomBytes } from "node:crypto";
import { constants, lstatSync, mkdirSync, rmSync } from "node:fs";
import { mkdir, open, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { airlockHome, type Env } from "../cli/config.ts";
import type { CommandFuture, OutputChunk } from "./command-futures.ts";
import { shellQuote } from "./rewrite.ts";

/** More stream switches than this and the output is served through `futures serve` instead (one cat each). */
export const MAX_SEGMENTS = 8;
/** A replay nobody ran within this long is removed (Claude Code runs the command right after the hook). */
export const REPLAY_TTL_MS = 60_000;
const CLAIMED = ".claimed";

export function replayRoot(env: Env): string {
  return join(airlockHome(env), "replay");
}

interface Segment {
  stream: OutputChunk["stream"];
  data: Buffer;
}

/** Consecutive chunks of one stream joined: the order between stdout and stderr is kept segment by segment. */
export function segments(chunks: readonly OutputChunk[]): Segment[] {
  const out: Segment[] = [];
  const parts: Buffer[][] = [];
  for (const c of chunks) {
    if (c.data.length === 0) continue;
    if (out.at(-1)?.stream === c.stream) parts.at(-1)?.push(c.data);
    else {
      out.push({ stream: c.stream, data: Buffer.alloc(0) });
      parts.push([c.data]);
    }
  }
  return out.map((s, i) => ({ stream: s.stream, data: Buffer.concat(parts[i] ?? []) }));
}

/**
 * The replay command line. `$?` after it is the original exit code; `exit` is never used, because an agent may
 * append its own steps (Claude Code records the working directory after the command).
 */
export function replayLine(
  dir: string,
  id: string,
  segs: readonly Segment[],
  exitCode: number,
  fallback: string,
): string {
  const entry = shellQuote(join(dir, id));
  const claimed = shellQuote(join(dir, `${id}${CLAIMED}`));
  const cats = segs.map((s, i) => {
    const file = shellQuote(join(dir, `${id}${CLAIMED}`, String(i)));
    return s.stream === "stdout" ? `cat -- ${file}` : `cat -- ${file} >&2`;
  });
  const status = exitCode === 0 ? "true" : `(exit ${exitCode})`;
  return [
    `if mv -- ${entry} ${claimed} 2>/dev/null; then`,
    ...cats.map((c) => `${c};`),
    `rm -rf -- ${claimed}; ${status}; else ${fallback}; fi`,
  ].join(" ");
}

/** The replay directory, made if missing, and refused unless it is a real directory of this user's, 0700. */
function ensureRoot(dir: string): boolean {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  return (
    st.isDirectory() &&
    !st.isSymbolicLink() &&
    (uid === undefined || st.uid === uid) &&
    (st.mode & 0o077) === 0
  );
}

async function writeOnce(path: string, data: Buffer): Promise<void> {
  const fh = await open(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    await fh.writeFile(data);
  } finally {
    await fh.close();
  }
}

export class ReplayStore {
  readonly #dir: string;
  /** Pending (unclaimed) replays: id → the workspace root it was served in and when. */
  readonly #pending = new Map<string, { root: string; at: number }>();
  readonly #log: (line: string) => void;

  constructor(dir: string, log: (line: string) => void) {
    this.#dir = dir;
    this.#log = log;
  }

  /**
   * Writes `future`'s output for one replay and returns the command line that plays it, or null when it cannot
   * be replayed from the shell (too many stream switches, an unsafe directory): the caller rewrites as before.
   */
  async prepare(future: CommandFuture, fallback: string): Promise<string | null> {
    const segs = segments(future.chunks);
    if (segs.length > MAX_SEGMENTS) return null;
    try {
      if (!ensureRoot(this.#dir)) {
        this.#log(
          `precog: ${this.#dir} is not a 0700 directory of this user's; served commands start airlock`,
        );
        return null;
      }
      await this.#sweep();
      const id = randomBytes(16).toString("hex");
      const entry = join(this.#dir, id);
      // Fails on anything already there (a planted file or symlink), which a fresh random name never meets.
      await mkdir(entry, { mode: 0o700 });
      this.#pending.set(id, { root: future.root, at: Date.now() });
      await Promise.all(segs.map((s, i) => writeOnce(join(entry, String(i)), s.data)));
      return replayLine(this.#dir, id, segs, future.exitCode, fallback);
    } catch (error) {
      this.#log(`precog: replay not written: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }

  /**
   * Something changed in `root` (a mutating call was decided, a file changed): every replay not yet claimed there
   * is removed, so its command falls back to `futures serve`, which validates again.
   */
  drop(root: string): void {
    for (const [id, p] of this.#pending) {
      if (p.root !== root) continue;
      this.#pending.delete(id);
      // Synchronous: gone before the next call's decision is answered, so its replay can no longer be claimed.
      rmSync(join(this.#dir, id), { recursive: true, force: true });
    }
  }

  get pending(): number {
    return this.#pending.size;
  }

  /** Removes expired replays and claimed ones a replay left behind (it was killed mid-way). */
  async #sweep(): Promise<void> {
    const now = Date.now();
    for (const [id, p] of this.#pending) {
      if (now - p.at < REPLAY_TTL_MS) continue;
      this.#pending.delete(id);
      await rm(join(this.#dir, id), { recursive: true, force: true });
    }
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (!name.endsWith(CLAIMED)) continue;
      const st = await stat(join(this.#dir, name)).catch(() => undefined);
      if (st && now - st.mtimeMs > REPLAY_TTL_MS)
        await rm(join(this.#dir, name), { recursive: true, force: true });
    }
  }

  /** Shutdown: nothing pending is left on disk. */
  async close(): Promise<void> {
    await Promise.all(
      [...this.#pending.keys()].map((id) => rm(join(this.#dir, id), { recursive: true, force: true })),
    );
    this.#pending.clear();
  }
}
