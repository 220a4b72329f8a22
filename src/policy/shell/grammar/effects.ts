// Steps programs share when they turn parsed words into effects: listing or walking their
// operands, a default operand, reads of files only known at run time.
import type { Arg } from "../wrappers.ts";
import { pathEffect } from "./parse.ts";
import type { Effects, NotUnderstood, Parsed, PathEffect } from "./spec.ts";

export const DOT: Arg = Object.freeze({ value: ".", raw: ".", glob: false, tilde: false });
/** A file the program reads that is only named at run time (inside a list file, on standard input). */
export const UNKNOWN_FILE: Arg = Object.freeze({
  value: null,
  raw: "<a file named at run time>",
  glob: false,
  tilde: false,
});

/** Drops the default effects of the operands: the program's own step reports them. */
export function dropOperands(p: Parsed, out: Effects): void {
  const ops = new Set(p.operands);
  out.paths = out.paths.filter((e) => !ops.has(e.arg));
}

/** Operands (or `dflt` when none) listed, or walked when recursive. */
export function listOrWalk(
  p: Parsed,
  out: Effects,
  how: {
    recursive: boolean;
    follow: PathEffect["follow"];
    dflt: Arg | null;
    contents?: boolean;
    ignores?: boolean;
    /** A file operand may be a directory whose own entries it reads (diff): a walk one level deep. */
    oneLevel?: boolean;
    /** It prints each operand's own name, not the names below it (`ls -d`, `du -s`). */
    itself?: boolean;
  },
  operands: readonly Arg[] = p.operands,
): void {
  dropOperands(p, out);
  const targets = operands.length > 0 ? operands : how.dflt !== null ? [how.dflt] : [];
  for (const a of targets) {
    if (a.pipe === true || a.value === "-") continue;
    const access = how.recursive || how.oneLevel === true ? "walk" : how.contents ? "read" : "list";
    out.paths.push(
      pathEffect(access, a, {
        follow: how.follow,
        contents: how.contents === true,
        ignores: how.ignores === true,
        ...(!how.recursive && how.oneLevel === true ? { depth: 1 } : {}),
        ...(how.itself === true ? { itself: true as const } : {}),
      }),
    );
  }
}

export function unknownRead(out: Effects): void {
  out.paths.push(pathEffect("read", UNKNOWN_FILE));
}

export function raise(out: Effects, to: Effects["effect"]): void {
  const order = ["read", "write", "destroy", "run"];
  if (order.indexOf(to) > order.indexOf(out.effect)) out.effect = to;
}

/** Words holding a placeholder the program fills with a file name are only known at run time. */
export function placeholders(argv: readonly Arg[], marks: RegExp): Arg[] {
  return argv.map((a) => (a.value !== null && marks.test(a.value) ? { ...a, value: null } : a));
}

/** A program that takes no operand: the first one given, with `why`, or null. */
export function noOperand(p: Parsed, why: string): NotUnderstood | null {
  const extra = p.operands[0];
  return extra === undefined ? null : { word: extra.raw, reason: why };
}
