// Where a command's standard descriptors (0-2) point. `/dev/stdin`, `/dev/stdout`, `/dev/stderr` and
// `/dev/fd/0-2` name the agent's own streams only while nothing has pointed that descriptor at a file:
// Linux reopens the file behind /proc/self/fd/N, so after `< .husky/pre-commit` (the statement's own, an
// enclosing group's or loop's, or the caller's for a `bash -c` script) `>> /dev/stdin` appends to the
// hook (red team, round 16: r16a-10). An `exec` can point them anywhere for the rest of the script, and
// a function runs with its caller's, so there they are not known.
import type { CwdSet } from "./cwd.ts";
import { type Redirect, redirOps, type StmtEvent } from "./parser.ts";
import type { WordValue } from "./words.ts";

/** A standard descriptor pointed at a file: the file as its redirection named it (null: not known). */
export interface PointedFd {
  path: string | null;
  tilde: boolean;
  glob: boolean;
  /** Where the redirection that opened it ran. */
  cwd: CwdSet;
}

/** Descriptors 0-2 pointed at a file, by number; one absent is the agent's own or harmless (a pipe, /dev/null). */
export type StdFds = ReadonlyMap<string, PointedFd>;

export const OWN_FDS: StdFds = new Map();

const UNKNOWN: PointedFd = { path: null, tilde: false, glob: false, cwd: null };

/** Every standard descriptor pointed somewhere not known (after an `exec`, in a function body). */
export const UNKNOWN_FDS: StdFds = new Map(["0", "1", "2"].map((fd) => [fd, UNKNOWN]));

const STD_NAMES: Readonly<Record<string, string>> = { stdin: "0", stdout: "1", stderr: "2" };

/** The descriptor a name reopens (`/dev/stdout` is 1, `/dev/fd/2` is 2), or null for any other name. */
export function stdFdOf(name: string | null): string | null {
  const m = /^\/dev\/(?:(stdin|stdout|stderr)|fd\/([012]))$/.exec(name ?? "");
  if (m === null) return null;
  return m[2] ?? (STD_NAMES[m[1] as string] as string);
}

/** Names that stay harmless whatever they are written through: nothing is stored behind them. */
const SINKS = /^\/dev\/(null|tty)$/;

/** The descriptors a redirection sets: its number as written, else the operator's default. */
function fdsSet(text: string, op: number): string[] {
  const n = /^(\d+)/.exec(text)?.[1];
  if (n !== undefined) return [n];
  if (/^\{/.test(text)) return [];
  const ops = redirOps();
  if (op === ops.all || op === ops.appendAll) return ["1", "2"];
  const input = [ops.in, ops.readWrite, ops.dupIn, ops.hdoc, ops.dashHdoc, ops.word];
  return input.includes(op) ? ["0"] : ["1"];
}

/** What one redirection leaves a descriptor pointing at: undefined for the agent's own or harmless. */
function pointedBy(r: Redirect, target: WordValue, fds: StdFds, cwd: CwdSet): PointedFd | undefined {
  const ops = redirOps();
  // A here-document or here-string is text bash wrote itself; a process substitution is a pipe.
  if (r.op === ops.hdoc || r.op === ops.dashHdoc || r.op === ops.word || target.pipe) return undefined;
  const value = target.value;
  if (r.op === ops.dupOut || r.op === ops.dupIn) {
    // `2>&1` copies what 1 is; `<&-` closes; `>&3` is a descriptor the shell inherited or opened elsewhere.
    if (value === "-") return undefined;
    if (value !== null && /^[012]-?$/.test(value)) return fds.get(value[0] as string);
    if (value === null || /^\d+-?$/.test(value)) return UNKNOWN;
    // `>&file` is `&>file`.
  }
  const std = stdFdOf(value);
  if (std !== null) return fds.get(std);
  if (value !== null && SINKS.test(value)) return undefined;
  return { path: value, tilde: target.tilde, glob: target.glob, cwd };
}

/** The standard descriptors after one redirection of a statement (bash applies them left to right). */
export function afterRedirect(
  fds: StdFds,
  r: Redirect,
  text: string,
  target: WordValue,
  cwd: CwdSet,
): StdFds {
  const set = fdsSet(text, r.op).filter((fd) => fd === "0" || fd === "1" || fd === "2");
  // `>&file` points both 1 and 2 at the file.
  const ops = redirOps();
  if (r.op === ops.dupOut && !/^\d/.test(text) && target.value !== null && !/^(\d+|-)-?$/.test(target.value))
    set.push("2");
  if (set.length === 0) return fds;
  const pointed = pointedBy(r, target, fds, cwd);
  const next = new Map(fds);
  for (const fd of set) {
    if (pointed === undefined) next.delete(fd);
    else next.set(fd, pointed);
  }
  return next;
}

/**
 * The descriptors each statement of a script starts with: the script's own, or those the redirections of
 * a group, loop or subshell around it set (`{ …; } < FILE`, `while …; done < FILE`). A function body runs
 * with its caller's, which are not known where it is defined.
 */
export class EnclosingFds {
  readonly #open: { end: number; std: StdFds | undefined }[] = [];
  readonly #base: StdFds | undefined;

  constructor(base: StdFds | undefined) {
    this.#base = base;
  }

  /** The descriptors a statement starts with. */
  at(event: StmtEvent): StdFds | undefined {
    while ((this.#open.at(-1)?.end ?? Number.POSITIVE_INFINITY) <= event.start) this.#open.pop();
    return this.#open.length === 0 ? this.#base : this.#open[this.#open.length - 1]?.std;
  }

  /** After a statement: the statements inside it (a compound command's body) start with `std`. */
  enter(event: StmtEvent, std: StdFds): void {
    if (event.cmd?.type === "func") this.#open.push({ end: event.end, std: UNKNOWN_FDS });
    else if (event.cmd?.type !== "call") this.#open.push({ end: event.end, std });
  }
}
