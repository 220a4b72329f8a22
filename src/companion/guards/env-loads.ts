// The agent's environment naming paths programs load code or configuration from (policy/env-loads.ts's
// table), looked at on disk: a write at or below such a path is running code the judge never sees, and
// while BASH_ENV or a loader variable leads to something in the workspace, every shell call runs it. And
// the variables that move a credential store (policy/env-secrets.ts): reading the store where it now is
// reads the secret.
import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { CallFact } from "../../policy/call-facts.ts";
import { type LoadedPath, type LoadingVariable, loadedPaths } from "../../policy/env-loads.ts";
import { type MovedStore, movedSecret, movedStores } from "../../policy/env-secrets.ts";
import type { Context } from "./disk-context.ts";
import { lstatEntry } from "./fs-entry.ts";
import { isWithin, realPathOf } from "./real-path.ts";
import { shownPath } from "./tree-walk.ts";

/** The path as named and as the disk resolves it (a link to a directory protects what it leads to). */
function spellings(path: string): string[] {
  const r = realPathOf(path);
  return r.ok && r.real !== path ? [path, r.real] : [path];
}

function named(l: LoadedPath, ctx: Context): string {
  return l.path === null
    ? `\`${l.entry}\`, relative to where a program runs (any directory of the workspace)`
    : `\`${shownPath(l.path, ctx.workspace)}\``;
}

/**
 * A write to `real` (named `lexical`) at or below a path the environment names. A relative entry names a
 * path below whatever directory the program runs in, so it names every directory of the workspace.
 */
export function loadedWriteFact(
  real: string,
  lexical: string,
  ctx: Context,
  subject: string,
): CallFact | null {
  for (const l of loadedPaths(ctx.env)) {
    const hit =
      l.path === null
        ? isWithin(ctx.workspace, real)
        : spellings(l.path).some((p) =>
            [real, lexical].some((w) => isWithin(p, w) || (l.prefix && w.startsWith(p))),
          );
    if (hit && !notImported(l, real, lexical))
      return {
        subject,
        reason: `${l.name} in the agent's environment names ${named(l, ctx)}: ${l.variable.loads}, so writing there runs code the judge never sees`,
      };
  }
  return null;
}

/**
 * A file below a search directory (never the entry itself, which may be a zip python reads) by a name the
 * program does not load (`src/README.md` under PYTHONPATH=src), nor under python's __pycache__. A relative
 * entry other than the working directory (`""`, `.`) may name the written path itself.
 */
function notImported(l: LoadedPath, real: string, lexical: string): boolean {
  const imports = l.variable.imports;
  if (imports === undefined) return false;
  const below =
    l.path === null
      ? l.entry === "" || l.entry === "."
      : spellings(l.path).every((p) => p !== real && p !== lexical);
  const names = [real, lexical].map((p) => basename(p));
  return (
    below &&
    names.every((n) => !imports.test(n)) &&
    ![real, lexical].some((p) => p.split("/").includes("__pycache__"))
  );
}

/** Something is there now: a file, or a directory with any entry. */
function holdsSomething(path: string): boolean {
  const r = realPathOf(path);
  if (!r.ok) return true;
  if (r.stat === null) return false;
  if (!r.stat.isDirectory()) return true;
  try {
    return readdirSync(r.real).length > 0;
  } catch {
    return true;
  }
}

/**
 * A call while a variable that `runs` picks leads into the workspace to something there now (or is
 * relative); a prefix (gcc's `-B`) leads to whatever names start with it, so the directory it is in counts.
 */
function loadsNowFact(
  ctx: Context,
  subject: string,
  runs: (v: LoadingVariable) => boolean,
  now: string,
): CallFact | null {
  for (const l of loadedPaths(ctx.env)) {
    if (!runs(l.variable)) continue;
    if (l.path !== null) {
      const path = l.prefix && !l.path.endsWith("/") ? dirname(l.path) : l.path;
      const inside = spellings(path).some((p) => isWithin(ctx.workspace, p));
      if (!inside || !holdsSomething(path)) continue;
    }
    return {
      subject,
      reason: `${l.name} in the agent's environment names ${named(l, ctx)}: ${l.variable.loads}, so ${now}`,
    };
  }
  return null;
}

/** A shell call while an every-call variable leads into the workspace to something there now (or is relative). */
export function shellStartFact(ctx: Context, subject: string): CallFact | null {
  return loadsNowFact(ctx, subject, (v) => v.everyCall === true, "this call would run what is there");
}

/** `program` run while a variable it loads from (LSB_OS_RELEASE for lsb_release, GIT_PAGER for git) leads into the workspace. */
export function programLoadsFact(ctx: Context, program: string, subject: string): CallFact | null {
  return loadsNowFact(
    ctx,
    subject,
    (v) => v.runBy?.includes(program) === true,
    `${program} would run what is there`,
  );
}

/** Where a store is as named and as the disk resolves it; a relative one is below any directory, as named. */
function storeSpellings(store: MovedStore): string[] {
  return store.relative ? [store.path] : spellings(store.path);
}

/** A read of `real` (named `lexical`) at a credential store the environment moved, or below a moved directory store. */
export function movedSecretFact(
  real: string,
  lexical: string,
  ctx: Context,
  subject: string,
): CallFact | null {
  for (const store of movedStores(ctx.env))
    for (const at of storeSpellings(store))
      for (const path of real === lexical ? [real] : [real, lexical]) {
        const spelled = movedSecret({ ...store, path: at }, path);
        if (spelled !== null)
          return {
            subject,
            reason: `${store.name} in the agent's environment puts \`${spelled}\` at \`${shownPath(path, ctx.workspace)}\`: a secret there as it is at its usual place`,
          };
      }
  return null;
}

/** Entries of a moved store a recursive read's check lists before it asks instead. */
const STORE_LIST_BOUND = 5_000;

/** The first file at or below `from` that is a secret of the moved store; "bound" when there are too many to list. */
function firstMovedSecret(store: MovedStore, from: string): string | "bound" | null {
  const stack = [from];
  let listed = 0;
  while (stack.length > 0) {
    const path = stack.pop() as string;
    const st = lstatEntry(path);
    if (st === undefined) continue;
    if (!st.isDirectory()) {
      if (movedSecret(store, path) !== null) return path;
      continue;
    }
    let names: string[];
    try {
      names = readdirSync(path);
    } catch {
      return "bound";
    }
    listed += names.length;
    if (listed > STORE_LIST_BOUND) return "bound";
    for (const name of names) stack.push(join(path, name));
  }
  return null;
}

/**
 * A recursive read whose root holds a store the environment moved (or is inside a moved directory store)
 * and reaches a secret of it: the walk's own check knows the families' names, not where the store is now.
 */
export function movedSecretWalkFact(root: string, ctx: Context, subject: string): CallFact | null {
  for (const store of movedStores(ctx.env))
    for (const at of storeSpellings(store)) {
      // A relative store may be below any directory the walk reaches, or hold the root itself.
      const from = store.relative ? root : isWithin(root, at) ? at : isWithin(at, root) ? root : null;
      if (from === null) continue;
      const hit = firstMovedSecret({ ...store, path: at }, from);
      if (hit === "bound")
        return {
          subject,
          reason: `the recursive read reaches \`${shownPath(at, ctx.workspace)}\`, where ${store.name} in the agent's environment keeps credentials, with more than ${STORE_LIST_BOUND} entries to check`,
        };
      if (hit !== null)
        return {
          subject,
          reason: `the recursive read reaches \`${shownPath(hit, ctx.workspace)}\`, a secret where ${store.name} in the agent's environment keeps credentials`,
        };
    }
  return null;
}
