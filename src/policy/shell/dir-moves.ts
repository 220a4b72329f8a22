// Which statements of a script may move the working directory, and where each scope it opens ends.
import { type ParsedScript, parseBash } from "./parser.ts";
import { wordValue } from "./words.ts";

/** Builtins and programs that change the directory, or run code that may. */
const CWD_CHANGERS = new Set(["cd", "pushd", "popd", "source", ".", "eval", "builtin", "command", "trap"]);

/** For each event, how many statements before it may move the working directory. */
export function dirMoves(events: ParsedScript["events"]): Uint32Array {
  const before = new Uint32Array(events.length + 1);
  events.forEach((e, i) => {
    let moves = false;
    if (e.kind === "stmt" && e.cmd?.type === "call") {
      const first = e.cmd.args[0];
      if (first !== undefined) {
        const v = wordValue(first).value;
        // `builtin cd` and `command cd` count through their first word.
        moves = v === null || CWD_CHANGERS.has(v);
      }
    }
    before[i + 1] = (before[i] as number) + (moves ? 1 : 0);
  });
  return before;
}

/** Whether a script string may move the shell: a statement of it changes directory (or cannot be read). */
export function scriptMovesDir(src: string): boolean {
  try {
    const { events } = parseBash(src);
    return (dirMoves(events)[events.length] as number) > 0;
  } catch {
    return true;
  }
}

/** For each `enter` event, the index of its `leave`. */
export function scopeEnds(events: ParsedScript["events"]): Map<number, number> {
  const ends = new Map<number, number>();
  const open: number[] = [];
  events.forEach((e, i) => {
    if (e.kind === "enter") open.push(i);
    else if (e.kind === "leave") ends.set(open.pop() as number, i);
  });
  return ends;
}
