// `exec 3<README.md; cat <&3`: a descriptor the script opens for reading with `exec`, as one of the
// statements it opens with, is that file in every later `<&3`. Bound only when nothing else can make fd 3
// another file: the `exec` runs first and unconditionally (only plain statements of assignments before it,
// each alone and ended by `;` or a newline), it opens `N<WORD` with N from 3 to 9 (bash gives `{name}`
// descriptors 10 and up) and a static word, and no other redirection in the script names fd N (`3>x`,
// `3<&-`, `<&3-`, a second `exec 3<y`). A redirection that fails leaves fd N as the shell inherited it and
// bash goes on, so the file must be there to open: the disk's to see (`opens` on the read unit).
import type { ParsedScript, Redirect, StmtEvent } from "./parser.ts";
import { redirOps } from "./parser.ts";
import { wordValue } from "./words.ts";

export interface OpenedFd {
  /** The script the binding belongs to (offsets are into it). */
  src: string;
  /** The redirection that opens it, and the offset after which `<&N` is the file. */
  opening: Redirect;
  after: number;
  /** The file, as the opening redirection names it. */
  path: string;
}

const OPENING = /^([3-9])<(?![<>&])/;

/** Whether a statement is `exec` with only redirections after it. */
function isBareExec(src: string, e: StmtEvent): boolean {
  const cmd = e.cmd;
  return (
    cmd?.type === "call" &&
    cmd.assigns.length === 0 &&
    cmd.args.length === 1 &&
    src.slice(cmd.args[0]?.start ?? 0, cmd.args[0]?.end ?? 0) === "exec" &&
    e.hazards.length === 0
  );
}

/** The descriptors the script's opening `exec` statements bind, by number. */
export function openedDescriptors(src: string, events: ParsedScript["events"]): Map<string, OpenedFd> {
  const out = new Map<string, OpenedFd>();
  const ops = redirOps();
  let at = 0;
  for (const e of events) {
    if (e.kind === "assign") continue;
    if (e.kind !== "stmt" || src.slice(at, e.start).trim() !== "") break;
    const own = src.slice(e.start, e.end);
    if (!own.endsWith(";") && !/^[ \t]*(\n|$)/.test(src.slice(e.end))) break;
    const assignsOnly = e.cmd?.type === "call" && e.cmd.args.length === 0 && e.redirs.length === 0;
    if (!assignsOnly && !isBareExec(src, e)) break;
    for (const r of e.redirs) {
      const fd = OPENING.exec(src.slice(r.start, r.end))?.[1];
      const target = r.word === null ? null : wordValue(r.word);
      if (fd === undefined || r.op !== ops.in || target === null || target.value === null) continue;
      if (target.glob || target.tilde || out.has(fd)) out.delete(fd);
      else out.set(fd, { src, opening: r, after: e.end, path: target.value });
    }
    at = e.end;
  }
  for (const e of events) {
    if (e.kind !== "stmt" || out.size === 0) continue;
    for (const r of e.redirs) {
      const text = src.slice(r.start, r.end);
      for (const [fd, b] of out) {
        if (r === b.opening) continue;
        const target = r.word === null ? null : wordValue(r.word).value;
        const readsIt = r.op === ops.dupIn && target === fd && !/^\d/.test(text);
        if (!readsIt && (text.startsWith(fd) || (target ?? "").replace(/-$/, "") === fd)) out.delete(fd);
      }
    }
  }
  return out;
}
