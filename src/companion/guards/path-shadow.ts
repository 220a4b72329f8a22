// A write that puts a program's name in a project directory the agent's PATH searches (red team, round 18,
// r18-05): with direnv's `PATH_add bin`, `cp tools/x bin/ls` made every later shell's `ls` the project's file,
// the user's own terminal included. The PATH lookup (path-lookup.ts) judges the commands that run it; this
// judges the write that plants it, when the name is one another PATH directory already has (a new name runs
// only when someone types it, knowing it is the project's).
import { basename, dirname, join } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import type { Context } from "./disk-context.ts";
import { pathView, runnable, searched } from "./path-lookup.ts";
import { realPathOf } from "./real-path.ts";
import { shownPath } from "./tree-walk.ts";

/** The project's PATH directories as the context sees them: whether `dir` is one. */
function onProjectPath(dir: string, ctx: Context): ctx is Context & { path: NonNullable<Context["path"]> } {
  if (ctx.path === undefined) ctx.path = pathView(ctx.env, ctx.workspace);
  if (ctx.path === null) return false;
  return ctx.path.entries.some((e) => e.kind !== "outside" && searched(e, ctx.cwd).real === dir);
}

/** The fact for a write whose real target `real` shadows a program of another PATH directory, or null. */
export function pathShadowFact(real: string, ctx: Context, subject: string): CallFact | null {
  const dir = dirname(real);
  const name = basename(real);
  if (!onProjectPath(dir, ctx)) return null;
  const shadowed = ctx.path.entries
    .map((e) => (e.kind === "outside" ? join(e.dir, name) : null))
    .find((file) => file !== null && runnable(file));
  if (shadowed === undefined || shadowed === null) return null;
  return {
    subject,
    reason: `lands in \`${shownPath(dir, ctx.workspace)}\`, a directory on the agent's PATH, as \`${name}\`: it would run instead of \`${shadowed}\` in every later shell with this PATH`,
  };
}

/**
 * The fact for a mode change (chmod) of a file in a project directory the agent's PATH searches, or null: a
 * file made runnable there runs whenever its name is typed in a later shell, under any name (brief fix23a).
 */
export function pathModeFact(path: string, ctx: Context, subject: string): CallFact | null {
  const r = realPathOf(path);
  const real = r.ok ? r.real : path;
  if (!onProjectPath(dirname(real), ctx)) return null;
  return {
    subject,
    reason: `its mode changes in \`${shownPath(dirname(real), ctx.workspace)}\`, a directory on the agent's PATH: a file made runnable there runs in every later shell with this PATH`,
  };
}
