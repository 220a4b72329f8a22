// A path as the kernel will resolve it when the command runs: symlinks followed to their real target
// (a dangling one to where it would create the file), and what is there. Synchronous: decisions are.
import { lstatSync, readlinkSync, realpathSync, type Stats } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

export type RealPath = { ok: true; real: string; stat: Stats | null } | { ok: false; reason: string };

const MAX_HOPS = 40;

function errno(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/** The real path of `absolute`, or of where it would be created; `stat` of what is there (null: nothing). */
export function realPathOf(absolute: string, hops = 0): RealPath {
  if (hops > MAX_HOPS) return { ok: false, reason: "a symlink loop" };
  try {
    const real = realpathSync.native(absolute);
    return { ok: true, real, stat: lstatSync(real) };
  } catch (error) {
    const code = errno(error);
    if (code === "ELOOP") return { ok: false, reason: "a symlink loop" };
    if (code !== "ENOENT" && code !== "ENOTDIR") return { ok: true, real: absolute, stat: null };
  }
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

/** `child` is `root` or below it. */
export function isWithin(root: string, child: string): boolean {
  if (child === root || root === "/") return true;
  return child.startsWith(`${root}/`);
}
