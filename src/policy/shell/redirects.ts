// A statement's redirections: the files they read and write, a descriptor the script's opening `exec`
// bound, the text a here-document or here-string gives standard input, and where they leave fds 0-2.
import type { Collector } from "./collector.ts";
import type { Shell } from "./command.ts";
import { type Redirect, redirOps, type Word } from "./parser.ts";
import { unknownExpansions } from "./secret-output.ts";
import { afterRedirect, OWN_FDS, type PointedFd, type StdFds, stdFdOf } from "./std-fds.ts";
import type { Concern } from "./units.ts";
import { DYNAMIC_WORD, wordValue } from "./words.ts";

const HARMLESS_TARGETS = /^\/dev\/(null|tty)$/;
/**
 * A descriptor the shell did not open here (`>/dev/fd/3`, `>&3`, `/proc/self/fd/3`): whatever file the
 * agent's shell inherited it for, not known before it runs. `/dev/fd/0-2` are the command's own streams
 * unless a redirection pointed them at a file (std-fds.ts).
 */
const INHERITED_FD = /^\/(dev\/fd|proc\/(self|\d+)\/fd)\/\d+$/;
let writeOpsCache: ReadonlySet<number> | undefined;
function writeOps(): ReadonlySet<number> {
  const op = redirOps();
  writeOpsCache ??= new Set([op.out, op.append, op.clobber, op.all, op.appendAll, op.readWrite]);
  return writeOpsCache;
}

/**
 * What a here-document gives standard input: with a quoted delimiter its text as written; without,
 * its text after `\$`, `` \` ``, `\\` and backslash-newline are unescaped; null when it expands
 * something. Read from the parser's values, not the source, which inside backquotes carries an
 * extra level of backslashes.
 */
function heredocBody(body: Word, delimiter: Word | null): string | null {
  const quoted = delimiter?.parts.some((p) => p.type !== "lit" || p.value.includes("\\")) === true;
  let text = "";
  for (const p of body.parts) {
    if (p.type !== "lit") return null;
    text += p.value;
  }
  return quoted ? text : text.replace(/\\([$`\\\n])/g, (_m, c: string) => (c === "\n" ? "" : c));
}

export interface Redirected {
  /** The static script on the command's standard input, if any. */
  stdin: string | null;
  /** Where fds 0-2 point while the command runs. */
  std: StdFds;
}

/** Judges a statement's redirections. */
export function redirects(
  src: string,
  redirs: readonly Redirect[],
  shell: Shell,
  out: Collector,
  secrets: Concern[],
): Redirected {
  let stdin: string | null = null;
  let std = shell.std ?? OWN_FDS;
  const ops = redirOps();
  for (const r of redirs) {
    const target = r.word ? wordValue(r.word) : DYNAMIC_WORD;
    const text = src.slice(r.start, r.end);
    const opened = openedFile(src, r, target.value, shell);
    const push = (kind: "read" | "write", fd = false) => {
      // A process substitution's pipe is not a file; the command behind it is judged itself.
      if (target.pipe || (target.value !== null && HARMLESS_TARGETS.test(target.value))) return;
      const named = stdFdOf(target.value);
      if (named !== null) {
        pushPointed(out, kind, text, std.get(named));
        return;
      }
      const inherited = fd || (target.value !== null && INHERITED_FD.test(target.value));
      for (const dir of shell.cwd ?? [null]) {
        out.push({
          kind,
          path: inherited ? null : target.value,
          text,
          cwd: dir,
          tilde: target.tilde,
          glob: target.glob,
          recursive: false,
          ...(shell.fds?.get(text[0] ?? "")?.opening === r ? { opens: true as const } : {}),
        });
      }
    };
    if (opened !== null) {
      // `<&3` after the script's opening `exec 3<FILE`: FILE, opened where the script started.
      out.push({ kind: "read", path: opened, text, cwd: ".", tilde: false, glob: false, recursive: false });
      continue;
    }
    if (r.op === ops.hdoc || r.op === ops.dashHdoc) {
      stdin = r.hdoc ? heredocBody(r.hdoc, r.word) : "";
      // An unquoted here-document expands `$NAME` wherever it stands, quotes or not.
      const quoted = r.word?.parts.some((p) => p.type !== "lit" || p.value.includes("\\")) === true;
      if (r.hdoc && !quoted)
        stdinSecrets(src.slice(r.hdoc.start, r.hdoc.end).replace(/'/g, ""), secrets, shell.assigned);
    } else if (r.op === ops.word) {
      stdin = target.value;
      if (r.word) stdinSecrets(src.slice(r.word.start, r.word.end), secrets, shell.assigned);
    } else if (r.op === ops.readWrite) {
      push("read");
      push("write");
    } else if (
      writeOps().has(r.op) ||
      (r.op === ops.dupOut && target.value !== null && !/^(\d+|-)$/.test(target.value))
    ) {
      push("write");
    } else if (
      r.op === ops.in ||
      (r.op === ops.dupIn && target.value !== null && !/^(\d+|-)$/.test(target.value))
    ) {
      push("read");
    } else if ((r.op === ops.dupOut || r.op === ops.dupIn) && /^([3-9]|\d{2,})-?$/.test(target.value ?? "")) {
      push(r.op === ops.dupOut ? "write" : "read", true);
    }
    std = afterRedirect(std, r, text, target, shell.cwd);
  }
  return { stdin, std };
}

/** `>> /dev/stdin` after `< FILE`: the file the descriptor points at, opened as this redirection opens it. */
function pushPointed(out: Collector, kind: "read" | "write", text: string, fd: PointedFd | undefined): void {
  if (fd === undefined) return;
  for (const dir of fd.cwd ?? [null])
    out.push({ kind, path: fd.path, text, cwd: dir, tilde: fd.tilde, glob: fd.glob, recursive: false });
}

/** The file a `<&N` reads when the script's opening `exec` bound fd N (exec-fds.ts), or null. */
function openedFile(src: string, r: Redirect, target: string | null, shell: Shell): string | null {
  const b = target === null ? undefined : shell.fds?.get(target);
  if (b === undefined || b.src !== src || r.op !== redirOps().dupIn || r.start < b.after) return null;
  return /^\d/.test(src.slice(r.start, r.end)) ? null : b.path;
}

/** A here-string or here-document that expands a variable not known to be harmless gives it to the command. */
function stdinSecrets(raw: string, secrets: Concern[], assigned: ReadonlySet<string>): void {
  secrets.push(...unknownExpansions(raw, assigned, "standard input"));
}
