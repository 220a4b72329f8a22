// `x=README.md; cat "$x"`: a plain assignment the script opens with, used later as a whole word. The
// statements a script begins with run first and unconditionally, so after them `"$x"` is that value, as
// a `for` loop's variable is each of its words (loop-vars.ts, whose binding this reuses). Bound only when
// nothing else can set the name or change what the assignment does: it is one of the first statements,
// each alone (no command, no redirection) and ended by `;` or a newline (never `|`, `&`, `&&` or `||`:
// a subshell, or a scope of its own); it is `NAME=VALUE` with a plain value (no tilde, glob, blank or expansion: bash
// expands `x=~/k` and `x=a:~/k`); NAME appears nowhere else but in `$NAME`/`${NAME}` (no second
// assignment, `read`, `declare`, `export`, `${NAME:=…}`, `unset`); it is none of bash's own variables; and
// the script sources no file. A failed assignment (a readonly variable) ends a non-interactive bash.
import { isBashOwnVariable } from "./bash-own-vars.ts";
import { type LoopBinding, mentionedOnceAs, PLAIN_VALUE, type ScriptSetters } from "./loop-vars.ts";
import type { ParsedScript, StmtEvent } from "./parser.ts";
import type { ShellPrefix } from "./units.ts";

const MAX_BOUND = 8;

/** Whether NAME appears in `src` once outside `$NAME`/`${NAME}`, and that once is `NAME=`. */
function assignedOnlyOnce(src: string, name: string): boolean {
  return mentionedOnceAs(src, name, (_before, after) => after.startsWith("="));
}

/**
 * The names the script's opening assignments bind, each to the statement event after which it holds
 * (by index into `events`). Empty when the script does not open with one.
 */
export function openingBindings(
  src: string,
  events: ParsedScript["events"],
  prefixesOf: (event: StmtEvent) => ShellPrefix[],
): Map<number, LoopBinding[]> {
  const out = new Map<number, LoopBinding[]>();
  let at = 0;
  let count = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (e === undefined || e.kind === "assign") continue;
    // A scope (`x=a &`, `(x=a)`, a pipeline, `&&`, `||`) or anything before the statement ends the opening.
    if (e.kind !== "stmt" || src.slice(at, e.start).trim() !== "") break;
    const cmd = e.cmd;
    if (cmd?.type !== "call" || cmd.args.length > 0 || cmd.assigns.length === 0) break;
    if (e.redirs.length > 0 || e.hazards.length > 0 || e.loopNames.length > 0) break;
    // Ended by its own `;` or by a newline (a comment or another operator after it ends the opening).
    const own = src.slice(e.start, e.end);
    if (!own.endsWith(";") && !/^[ \t]*(\n|$)/.test(src.slice(e.end))) break;
    const bound: LoopBinding[] = [];
    for (const p of prefixesOf(e)) {
      if (p.value === null || !PLAIN_VALUE.test(p.value) || !p.raw.startsWith(`${p.name}=`)) continue;
      if (isBashOwnVariable(p.name) || !assignedOnlyOnce(src, p.name) || ++count > MAX_BOUND) continue;
      bound.push({
        name: p.name,
        values: [{ value: p.value, raw: p.value, glob: false, tilde: false }],
        unquoted: !/\bIFS\b/.test(src),
      });
    }
    if (bound.length > 0) out.set(i, bound);
    at = e.end;
  }
  return out;
}

/**
 * The opening bindings that still hold given every name the script sets (loop-vars.ts): none when some
 * statement may set a name the engine cannot place, and a name set anywhere else (`printf -vx`, `read -rx`,
 * `mapfile -tx`: glued forms the text check above cannot see) is dropped.
 */
export function heldOpenings(
  opening: Map<number, LoopBinding[]>,
  setters: ScriptSetters,
): Map<number, LoopBinding[]> | null {
  if (setters.unplaced !== null) return null;
  const out = new Map<number, LoopBinding[]>();
  for (const [i, bound] of opening) {
    const held = bound.filter((b) => setters.names.get(b.name) === 1);
    if (held.length > 0) out.set(i, held);
  }
  return out;
}
