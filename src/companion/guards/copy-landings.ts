// Where the names of a tree copied or moved whole land (`cp -r tmpl newdir`, `mv tmpl/.vscode .`): each name
// the source holds now is written below the destination, and is judged as a direct write there would be
// (fix17a: `cp -r tmpl newdir` made newdir/.vscode/tasks.json, which runs when the folder is opened, while
// only `newdir` was judged); likewise the members of an archive tar extracts. Bounded as the other walks are:
// a tree bigger than the bound asks.
import { type Dirent, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { CallFact, DiskTarget } from "../../policy/call-facts.ts";
import { isProtectedWriteAt, protectedWriteWhat } from "../../policy/home-config.ts";
import { tarNames } from "./archive-scan.ts";
import { expandGlob } from "./bash-glob.ts";
import type { Context } from "./disk-context.ts";
import { errno } from "./real-path.ts";
import { shownPath } from "./tree-walk.ts";

type CopyTarget = Extract<DiskTarget, { kind: "copy" }>;
type ExtractTarget = Extract<DiskTarget, { kind: "extract" }>;

const MAX_GLOB_SOURCES = 1_000;

/** Where a source matched by a glob lands: beside the other matches under its own name, or as `to` itself. */
function landingOf(t: CopyTarget, source: string): string {
  return t.glob && basename(t.to) === basename(t.from) ? join(dirname(t.to), basename(source)) : t.to;
}

function isDirectory(path: string, follow: boolean): boolean {
  try {
    return (follow ? statSync(path) : lstatSync(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The first name below `source` that lands on a protected write below `landing`, or a fact saying the tree
 * could not be listed in full; null when every name lands on an ordinary path.
 */
function landingFact(
  t: CopyTarget,
  source: string,
  landing: string,
  ctx: Context,
  budget: { left: number },
): CallFact | null {
  const fact = (reason: string): CallFact => ({ subject: t.shown, reason });
  if (!isDirectory(source, t.follow !== "none")) return null;
  const todo: string[] = [""];
  for (let rel = todo.pop(); rel !== undefined; rel = todo.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(source, rel), { withFileTypes: true });
    } catch (error) {
      return fact(
        `\`${shownPath(join(source, rel), ctx.workspace)}\` cannot be listed (${errno(error) ?? "an error"}), so what the copy puts below \`${shownPath(landing, ctx.workspace)}\` is not known`,
      );
    }
    budget.left -= entries.length;
    if (budget.left < 0)
      return fact(
        `it copies more than ${ctx.walkBound} names, which Airlock does not list one by one to see where each lands`,
      );
    for (const e of entries) {
      const name = rel === "" ? e.name : `${rel}/${e.name}`;
      const lands = join(landing, name);
      if (isProtectedWriteAt(lands, t.home))
        return fact(
          `\`${shownPath(join(source, name), ctx.workspace)}\` lands as \`${shownPath(lands, ctx.workspace)}\`, ${protectedWriteWhat(lands, t.home)}`,
        );
      const into =
        e.isDirectory() ||
        (t.follow === "all" && e.isSymbolicLink() && isDirectory(join(source, name), true));
      if (into) todo.push(name);
    }
  }
  return null;
}

/** An archive bigger than this is not read to list its names (unpacked: four times this). */
const MAX_ARCHIVE_BYTES = 32 * 1024 * 1024;

/**
 * Facts about the names an archive extracts below `to`: each judged where it lands, and, as --strip-components
 * may drop its leading names, as each of its tails would land too.
 */
export function extractLandingFacts(t: ExtractTarget, ctx: Context): CallFact[] {
  const fact = (reason: string): CallFact[] => [{ subject: t.shown, reason }];
  let bytes: Buffer;
  try {
    if (statSync(t.archive).size > MAX_ARCHIVE_BYTES)
      return fact(
        `\`${shownPath(t.archive, ctx.workspace)}\` is over ${MAX_ARCHIVE_BYTES / 1024 / 1024} MiB, too big to list the names it extracts`,
      );
    bytes = readFileSync(t.archive);
  } catch (error) {
    return fact(
      `\`${shownPath(t.archive, ctx.workspace)}\` cannot be read (${errno(error) ?? "an error"}), so the names it extracts are not known`,
    );
  }
  const names = tarNames(bytes, 4 * MAX_ARCHIVE_BYTES);
  if (names === null)
    return fact(
      `\`${shownPath(t.archive, ctx.workspace)}\` is not a tar (plain or gzip) Airlock can list, so the names it extracts are not known`,
    );
  if (names.length > ctx.walkBound)
    return fact(`it extracts more than ${ctx.walkBound} names, which Airlock does not judge one by one`);
  for (const name of names) {
    const segments = name.split("/").filter((s) => s !== "" && s !== ".");
    for (let k = 0; k < segments.length; k++) {
      const lands = join(t.to, ...segments.slice(k));
      if (isProtectedWriteAt(lands, t.home))
        return fact(
          `\`${name}\` of \`${shownPath(t.archive, ctx.workspace)}\` lands as \`${shownPath(lands, ctx.workspace)}\`, ${protectedWriteWhat(lands, t.home)}`,
        );
    }
  }
  return [];
}

/** Facts about the names a whole-tree copy puts below its destination (none: every one lands on an ordinary path). */
export function copyLandingFacts(t: CopyTarget, ctx: Context): CallFact[] {
  let sources = [t.from];
  if (t.glob) {
    const e = expandGlob(t.from, MAX_GLOB_SOURCES, true);
    if ("unknown" in e) return [{ subject: t.shown, reason: e.unknown }];
    sources = e.paths;
  }
  const budget = { left: ctx.walkBound };
  for (const source of sources) {
    const f = landingFact(t, source, landingOf(t, source), ctx, budget);
    if (f !== null) return [f];
  }
  return [];
}
