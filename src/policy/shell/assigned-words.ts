// `x=README.md; cat "$x"`: a plain assignment the script opens with (or `export x=README.md`), used later
// as a whole word. The statements a script begins with run first and unconditionally, so after them `"$x"`
// is that value, as a `for` loop's variable is each of its words (loop-vars.ts, whose binding this reuses).
// Bound only when nothing else can set the name or change what the assignment does: it is one of the first
// statements, each alone (no command, no redirection) and ended by `;` or a newline (never `|`, `&`, `&&`
// or `||`: a subshell, or a scope of its own); it is `NAME=VALUE` with a plain value (no tilde, glob, blank
// or expansion: bash expands `x=~/k` and `x=a:~/k`); NAME appears nowhere else but in `$NAME`/`${NAME}` (no
// second assignment, `read`, `declare`, `export`, `${NAME:=…}`, `unset`); it is none of bash's own
// variables; and the script sources no file. A failed assignment (a readonly variable) ends a
// non-interactive bash; a failed `export` does not, but the environment carries no readonly mark, so only
// bash's own variables (never bound) or a start-up file's `readonly` can make it fail. `NAME=$(CMD)` whose
// CMD prints no glob character (`git rev-parse --short HEAD`) binds NAME to the run-time word `$(CMD)`:
// judged as that word in its place, never as a known value (unquoted-globs.ts).
import { isBashOwnVariable } from "./bash-own-vars.ts";
import {
  boundArgvs,
  type LoopBinding,
  type LoopBindings,
  mentionedOnceAs,
  PLAIN_VALUE,
  rescannedValues,
  type ScriptSetters,
  scriptSetters,
} from "./loop-vars.ts";
import type { ParsedScript, StmtEvent, Word } from "./parser.ts";
import type { ShellPrefix } from "./units.ts";
import type { Arg } from "./wrappers.ts";

const MAX_BOUND = 8;

/** Whether NAME appears in `src` once outside `$NAME`/`${NAME}`, and that once is `NAME=`. */
function assignedOnlyOnce(src: string, name: string): boolean {
  return mentionedOnceAs(src, name, (_before, after) => after.startsWith("="));
}

/**
 * The script with each name arithmetic only reads (`$((n*2))`, `[[ n -eq 1 ]]`) blanked out: a read, as
 * `$n` is, not a place that sets it (walk.ts counts `n=1`, `n++` in arithmetic as assignments). Offsets
 * stay the script's, for the checks that a name is mentioned nowhere else.
 */
export function withoutArithmeticReads(src: string, events: ParsedScript["events"]): string {
  let out = src;
  for (const e of events)
    if (e.kind === "stmt")
      for (const h of e.hazards)
        if (h.name !== undefined && src.slice(h.start, h.end) === h.name)
          out = out.slice(0, h.start) + " ".repeat(h.name.length) + out.slice(h.end);
  return out;
}

/**
 * The script with this assignment's literal value taken out, so NAME inside it (`x='x[y]'`) is not counted
 * as another mention. Only its first spelling within its own statement is cut: a copy in an earlier word's
 * value is cut instead, and NAME is then counted twice, which only leaves it unbound.
 */
function withoutOwnValue(src: string, raw: string, name: string, start: number, end: number): string {
  const at = src.indexOf(raw, start);
  if (at === -1 || at + raw.length > end) return src;
  return src.slice(0, at + name.length + 1) + src.slice(at + raw.length);
}

/**
 * `NAME=VALUE` whose value is known as written: a plain word, or one whole single-quoted string
 * (`fmt='%s\n'`), in which bash expands nothing (no tilde, as in `x=a:~/k`). A value that is not plain is
 * bound for `"$NAME"` only: unquoted, bash would split and glob it again.
 */
function literalAssignment(name: string, value: string, raw: string): boolean {
  if (!raw.startsWith(`${name}=`)) return false;
  const written = raw.slice(name.length + 1);
  return PLAIN_VALUE.test(value) || (written === `'${value}'` && !value.includes("'"));
}

/**
 * A statement that only assigns: `NAME=VALUE …` alone, or `export NAME=VALUE …` with no option and no bare
 * name (the export unit is judged on its own: what a later program reads from the environment is its concern).
 */
function onlyAssigns(cmd: StmtEvent["cmd"]): boolean {
  if (cmd?.type === "call") return cmd.args.length === 0 && cmd.assigns.length > 0;
  return (
    cmd?.type === "decl" && cmd.variant === "export" && cmd.args.length > 0 && cmd.args.every((a) => !a.naked)
  );
}

/**
 * The names the script's opening assignments bind, each to the statement event after which it holds
 * (by index into `events`). Empty when the script does not open with one.
 */
export function openingBindings(
  src: string,
  events: ParsedScript["events"],
  prefixesOf: (event: StmtEvent) => ShellPrefix[],
  outputOf: (event: StmtEvent, name: string) => { quoted: Arg; unquoted: Arg } | null,
  names: string = withoutArithmeticReads(src, events),
): Map<number, LoopBinding[]> {
  const out = new Map<number, LoopBinding[]>();
  let at = 0;
  let count = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (e === undefined || e.kind === "assign") continue;
    // A scope (`x=a &`, `(x=a)`, a pipeline, `&&`, `||`) or anything before the statement ends the opening.
    if (e.kind !== "stmt" || src.slice(at, e.start).trim() !== "") break;
    if (!onlyAssigns(e.cmd)) break;
    if (e.redirs.length > 0 || e.hazards.length > 0 || e.loopNames.length > 0) break;
    // Ended by its own `;` or by a newline (a comment or another operator after it ends the opening).
    const own = src.slice(e.start, e.end);
    if (!own.endsWith(";") && !/^[ \t]*(\n|$)/.test(src.slice(e.end))) break;
    const bound: LoopBinding[] = [];
    for (const p of prefixesOf(e)) {
      const literal = p.value !== null && literalAssignment(p.name, p.value, p.raw);
      const output = literal ? null : outputOf(e, p.name);
      if (!literal && output === null) continue;
      const others = withoutOwnValue(names, p.raw, p.name, e.start, e.end);
      if (isBashOwnVariable(p.name) || !assignedOnlyOnce(others, p.name) || ++count > MAX_BOUND) continue;
      if (output !== null) {
        bound.push({ name: p.name, values: [output.quoted], unquoted: false, rescanned: [output.unquoted] });
        continue;
      }
      if (p.value === null) continue;
      const values = [{ value: p.value, raw: p.value, glob: false, tilde: false }];
      const unquoted = PLAIN_VALUE.test(p.value) && !/\bIFS\b/.test(src);
      bound.push({
        name: p.name,
        values,
        unquoted,
        rescanned: unquoted ? null : rescannedValues(values, src),
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

const boundCount = (m: ReadonlyMap<number, LoopBinding[]>) =>
  [...m.values()].reduce((n, b) => n + b.length, 0);

/**
 * The opening bindings that hold, and the script's setters read with them: a later word that is a held
 * `"$NAME"` is its value (`fmt=%s; printf "$fmt" x` sets nothing, where a run-time word could be `-vNAME`).
 * Dropping a binding may leave a statement its value had placed unplaced, so the script is read again with
 * what is left until nothing changes; none left, it is read as written.
 */
export function settledOpenings(
  opening: Map<number, LoopBinding[]>,
  events: ParsedScript["events"],
  statementArgv: (event: StmtEvent) => Arg[] | null,
  argsOf: (words: readonly Word[]) => Arg[],
): { opening: Map<number, LoopBinding[]> | null; setters: ScriptSetters } {
  let current = opening;
  for (;;) {
    const before = boundBefore(current, events);
    const setters = scriptSetters(events, (e) => {
      const bound = before.get(e);
      if (e.cmd?.type !== "call" || bound === undefined || bound.size === 0) return statementArgv(e);
      return boundArgvs(e.cmd.args, bound, argsOf)?.[0] ?? statementArgv(e);
    });
    const held = heldOpenings(current, setters);
    if (boundCount(held ?? new Map()) === boundCount(current)) return { opening: held, setters };
    current = held ?? new Map();
  }
}

/** For each statement, the opening bindings made by the statements before it. */
function boundBefore(
  opening: ReadonlyMap<number, LoopBinding[]>,
  events: ParsedScript["events"],
): Map<StmtEvent, LoopBindings> {
  const out = new Map<StmtEvent, LoopBindings>();
  let bound = new Map<string, LoopBinding>();
  events.forEach((e, i) => {
    if (e.kind !== "stmt") return;
    out.set(e, bound);
    const made = opening.get(i);
    if (made !== undefined) bound = new Map([...bound, ...made.map((b) => [b.name, b] as const)]);
  });
  return out;
}
