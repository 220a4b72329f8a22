// more (util-linux 2.38, text-utils/more.c): an agent's shell gives it no terminal, and with its standard
// output not a terminal more copies each file to it as cat does (display_file → copy_file), standard input
// when it has none; its commands (`!cmd`, `v` the editor, `:n`) are keys read from a terminal, which it
// never reads then. Its options are flags and a number; the MORE variable set by the command itself adds
// options and is judged as the variable it is (env-vars.ts), as less's LESSOPEN is.
import {
  type Effects,
  flag,
  GNU_COMMON,
  type NotUnderstood,
  opt,
  type Parsed,
  type ProgramGrammar,
} from "../spec.ts";

const LINES = opt("-n --lines", "number");

/**
 * Before getopt, more takes every `+NUM` (start at that line) and `+/TEXT` (start at TEXT's first match)
 * word out of its arguments wherever it stands, `--` or not (argscan): such a word names no file.
 */
const START_AT = /^\+(\d+|\/.*)$/s;

function finish(p: Parsed, out: Effects): NotUnderstood | null {
  const starts = p.operands.filter((a) => a.value !== null && START_AT.test(a.value));
  out.paths = out.paths.filter((e) => !starts.includes(e.arg));
  return null;
}

export const more: ProgramGrammar = {
  names: ["more"],
  options: [
    ...GNU_COMMON,
    ...["-d --silent", "-f --logical", "-l --no-pause", "-c --print-over", "-p --clean-print"].map((n) =>
      flag(n),
    ),
    ...["-e --exit-on-eof", "-s --squeeze", "-u --plain", "-V", "-h"].map((n) => flag(n)),
    LINES,
  ],
  // `-NUM` is the screen's lines, as -n NUM.
  numeric: LINES,
  permute: true,
  abbreviate: true,
  operands: ["read"],
  effect: "read",
  finish,
};
