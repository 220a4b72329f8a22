// A path as the kernel will resolve it when the command runs: symlinks followed to their real target
// (a dangling one to where it would create the file), and what is there. Synchronous: decisions are.
// A path through /proc/self, /proc/<pid> or /dev/fd leads where it leads for the process that opens it:
// resolved here it is the judge's, not the command's, so it is not known.
import { lstatSync, readlinkSync, realpathSync, type Stats } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

export type RealPath = { ok: true; real: string; stat: Stats | null } | { ok: false; reason: string };

const MAX_HOPS = 40;

/** Entries the kernel resolves by the process that opens them: its cwd, root, descriptors (`/dev/stdin` too). */
const PER_PROCESS = /^\/(?:proc\/(?:self|thread-self|\d+)|dev\/(?:fd|stdin|stdout|stderr))(?:\/|$)/;
/** Where a name under /proc or /dev may be per-process without a link on the way (`/proc/123/cwd`, macOS's `/dev/fd/3`). */
const PROC_OR_DEV = /^\/(?:proc|dev)\//;

export function errno(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/**
 * The first per-process entry the kernel meets resolving `absolute` (walked name by name, each link's
 * target spliced in, `..` taken from where the walk is), or null. Stops at a missing name: nothing after it
 * is resolved.
 */
export function perProcessEntry(absolute: string): string | null {
  return perProcessWalk(absolute)?.entry ?? null;
}

/** The per-process entry `absolute` meets and the names left after it (walked as `perProcessEntry` says). */
function perProcessWalk(absolute: string): { entry: string; rest: string[] } | null {
  const todo = absolute.split("/").reverse();
  let at = "";
  for (let links = 0; todo.length > 0; ) {
    const name = todo.pop() as string;
    if (name === "" || name === ".") continue;
    if (name === "..") {
      at = at.slice(0, at.lastIndexOf("/"));
      continue;
    }
    const next = `${at}/${name}`;
    if (PER_PROCESS.test(next)) return { entry: next, rest: todo.reverse() };
    let to: string | null;
    try {
      to = lstatSync(next).isSymbolicLink() ? readlinkSync(next) : null;
    } catch {
      return null;
    }
    if (to === null) {
      at = next;
      continue;
    }
    if (++links > MAX_HOPS) return null; // a loop: realpath says so
    todo.push(...to.split("/").reverse());
    if (isAbsolute(to)) at = "";
  }
  return null;
}

/**
 * A process's own descriptions the kernel keeps as plain files (never links) under /proc/self: its cgroup
 * paths, mount table and status (ids, memory). Whichever process opens `/proc/self/cgroup` (or
 * `/proc/mounts`, a link to self/mounts) reads its own: one fixed description, judged by that name.
 */
const OWN_DESCRIPTIONS = new Set(["cgroup", "mounts", "mountinfo", "status"]);

/** `/proc/self/NAME` when `absolute` resolves to the opening process's own description NAME, or null. */
function ownDescription(absolute: string): string | null {
  const walk = perProcessWalk(absolute);
  if (walk === null || !/^\/proc\/(?:self|thread-self)$/.test(walk.entry)) return null;
  const [name, ...more] = walk.rest.filter((n) => n !== "" && n !== ".");
  return name !== undefined && more.length === 0 && OWN_DESCRIPTIONS.has(name) ? `/proc/self/${name}` : null;
}

function perProcess(entry: string): RealPath {
  return {
    ok: false,
    reason: `it passes \`${entry}\`, which resolves per process (/proc/self …) to the command's own working directory, root or descriptors, not the judge's`,
  };
}

function unresolvable(code: string | undefined): RealPath {
  return { ok: false, reason: `the disk check cannot look at it (${code ?? "an error"})` };
}

/** The real path of `absolute`, or of where it would be created; `stat` of what is there (null: nothing). */
export function realPathOf(absolute: string, hops = 0): RealPath {
  if (hops > MAX_HOPS) return { ok: false, reason: "a symlink loop" };
  try {
    const real = realpathSync.native(absolute);
    // Only a path a link took elsewhere, or one named under /proc or /dev, is walked again.
    const entry = real !== absolute || PROC_OR_DEV.test(absolute) ? perProcessEntry(absolute) : null;
    const own = entry === null ? null : ownDescription(absolute);
    if (own !== null) return { ok: true, real: own, stat: lstatSync(real) };
    if (entry !== null) return perProcess(entry);
    return { ok: true, real, stat: lstatSync(real) };
  } catch (error) {
    const code = errno(error);
    if (code === "ELOOP") return { ok: false, reason: "a symlink loop" };
    if (code !== "ENOENT" && code !== "ENOTDIR") {
      // ENAMETOOLONG, EACCES…: what is there is not known, while the program may still open it by a
      // shorter relative name (red team, round 14: a link past PATH_MAX led to ~/.netrc).
      const entry = perProcessEntry(absolute);
      return entry === null ? unresolvable(code) : perProcess(entry);
    }
  }
  const entry = perProcessEntry(absolute);
  if (entry !== null) return perProcess(entry);
  // Missing: a dangling symlink leads to where it points; otherwise the real parent plus the name.
  let link: Stats | undefined;
  try {
    link = lstatSync(absolute);
  } catch {
    link = undefined;
  }
  if (link?.isSymbolicLink()) {
    const to = readlinkSync(absolute);
    return realPathOf(isAbsolute(to) ? to : resolve(dirname(absolute), to), hops + 1);
  }
  const parent = dirname(absolute);
  if (parent === absolute) return { ok: true, real: absolute, stat: null };
  const up = realPathOf(parent, hops);
  if (!up.ok) return up;
  return {
    ok: true,
    real: join(up.real, absolute.slice(parent.length + (parent === "/" ? 0 : 1))),
    stat: null,
  };
}

/**
 * An error that says nothing is there for anyone (missing, or a file where a directory should be), or one
 * the program meets too (EACCES: the user's own permissions). Any other (ENAMETOOLONG…) only says the
 * judge could not look: the program, opening by a relative name, may get through.
 */
export function nothingThere(error: unknown): boolean {
  const code = errno(error);
  return code === "ENOENT" || code === "ENOTDIR" || code === "EACCES";
}

/** A decoded file name holding U+FFFD: its bytes were not UTF-8, so looking it up by this name misses it. */
export function undecodable(name: string): boolean {
  return name.includes("\uFFFD");
}

/** `child` is `root` or below it. */
export function isWithin(root: string, child: string): boolean {
  if (child === root || root === "/") return true;
  return child.startsWith(`${root}/`);
}
