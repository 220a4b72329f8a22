// Files a start-up file hands a shell as program TEXT rather than by name (red team, round 19, r19-18,
// r19-20): `bash < F`, `cat F | bash`, `source /dev/stdin < F`, `exec 3< F; . /dev/fd/3`, `eval "$(cat F)"`,
// `source <(cat F)`, and a here-document given to a shell (read as the script it is). What a command whose
// output is run reads is taken as run: every path among its words and its input (`cat F`, `sed … F`, `< F`),
// more than the file it prints, never fewer. Pure: shell-sources.ts walks the statements.
import { anchored, runsFiles } from "./build-runs.ts";
import type { Reference } from "./path-references.ts";
import { redirOps } from "./shell/parser.ts";
import type { StmtEvent, Word } from "./shell/walk.ts";
import { type Argv, sourcedOperand, type WordValues } from "./shell-runs.ts";

const HOW = "feeds its text to a shell as code in every shell";

/** The files a program reads as its standard input or on another descriptor: `/dev/stdin`, `/dev/fd/N`. */
const FD_FILE = /^\/(?:dev\/(?:stdin$|fd\/(\d+)$)|proc\/self\/fd\/(\d+)$)/;

/** How a statement's words are read (shell-sources.ts: variables, `~`, braces, known heads). */
export type ValuesOf = (w: Word) => WordValues;

/** The descriptor a command reads its program from: 0 for a shell reading stdin, N for `. /dev/fd/N`. */
export function programDescriptor(depths: readonly Argv[]): number | null {
  const last = depths[depths.length - 1];
  if (last === undefined) return null;
  const kind = last.inner.kind;
  if (kind === "stdin-shell" || kind === "shell") return 0;
  const file = sourcedOperand(last.argv)?.value;
  const m = file === null || file === undefined ? null : FD_FILE.exec(file);
  return m === null ? null : Number(m[1] ?? m[2] ?? 0);
}

/**
 * `eval …` or `source`/`.` of a word built at run time, a shell given `<(cmd)` (`bash <(cat F)`): what the commands inside
 * those words print is run.
 */
export function runsOutput(depths: readonly Argv[]): boolean {
  return depths.some(({ argv }) => {
    if (argv[0]?.value === "eval") return argv.slice(1).some((a) => a.value === null);
    if (runsFiles(argv[0]?.value ?? "") && argv.slice(1).some((a) => a.value?.startsWith("/dev/fd/")))
      return true;
    const file = sourcedOperand(argv);
    return file !== null && (file.value === null || file.value.startsWith("/dev/fd/"));
  });
}

/** The files a statement reads on descriptor `fd` (`< F`, `3< F`, `<> F`), by its redirections. */
export function inputFiles(e: StmtEvent, src: string, fd: number, valuesOf: ValuesOf): WordValues {
  const ops = redirOps();
  return e.redirs.flatMap((r) => {
    if ((r.op !== ops.in && r.op !== ops.readWrite) || r.word === null) return [];
    const n = /^\d+/.exec(src.slice(r.start, r.end))?.[0];
    return Number(n ?? 0) === fd ? valuesOf(r.word) : [];
  });
}

/** A here-document's body as the script a shell reading it runs (a blank for a part known at run time). */
export function heredocScripts(e: StmtEvent, valuesOf: ValuesOf): string[] {
  const ops = redirOps();
  return e.redirs.flatMap((r) =>
    (r.op === ops.hdoc || r.op === ops.dashHdoc) && r.hdoc !== null
      ? valuesOf(r.hdoc).map((parts) => parts.map((p) => (p.type === "any" ? " " : p.value)).join(""))
      : [],
  );
}

/** Every path a command whose output (or input) is run reads: its words with a `/` but the program's, and `< F`. */
export function readFiles(e: StmtEvent, src: string, valuesOf: ValuesOf): Reference[] {
  const words = e.cmd?.type === "call" ? e.cmd.args.slice(1) : [];
  const values = [...words.flatMap(valuesOf), ...inputFiles(e, src, 0, valuesOf)];
  return fed(values.filter((parts) => parts[0]?.type === "lit" && parts[0].value.includes("/")));
}

/** Files whose text a shell runs, as references. */
export function fed(values: WordValues): Reference[] {
  return values.map((parts) => ({ parts: anchored(parts), below: false, how: HOW, follow: "shell" }));
}
