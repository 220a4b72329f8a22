// less (590, Debian bookworm; the options kept here are the same in 668): an agent's shell gives it no
// terminal, and with its standard output not a terminal less copies its files to it as cat does (main.c),
// reading each operand. Kept out, so not understood: what writes or loads a file or runs commands once less
// is on a terminal (`-o`/`-O` log files, `-k`/`--lesskey-src` key files that can bind `!` and set LESSOPEN,
// `-t`/`-T` tags, `-p`/`+` initial commands — `+!cmd` runs a shell, `-D`, `-P`, `-"` strings), any option
// this list does not name, and long names by prefix (less takes a unique prefix of its own, longer list).
// LESSOPEN/LESSKEY set by the command itself are judged as the variables they are (env-vars.ts).
import { flag, type NotUnderstood, opt, type Parsed, type ProgramGrammar } from "../spec.ts";

const WINDOW = opt("-z --window", "number");

/**
 * less reads a number and then goes on reading option letters in the same word (`-x4o/tmp/log` is `-x4`
 * and `-o/tmp/log`; `--tabs=4o…` the same): a value is understood only when it is all number.
 */
const NUMBER = /^-?(\d+(\.\d+)?|\.\d+)(,\d+)*$/;

function finish(p: Parsed): NotUnderstood | null {
  for (const o of p.options)
    if (o.value !== null && (o.value.value === null || !NUMBER.test(o.value.value)))
      return {
        word: o.value.raw,
        reason: `less reads ${o.name}'s value as a number and the rest as more options`,
      };
  const first = p.operands[0];
  // Before `--`, a first operand starting with `+` is less commands to run at the start (`+!cmd` runs a shell).
  if (first !== undefined && p.beforeDashes > 0 && /^\+./.test(first.value ?? "+x"))
    return {
      word: first.raw,
      reason: "a + word is less commands run as it starts (! runs a shell on a terminal)",
    };
  return null;
}

export const less: ProgramGrammar = {
  names: ["less"],
  options: [
    ...["-a --search-skip-screen", "-A --SEARCH-SKIP-SCREEN", "-B --auto-buffers", "-c --clear-screen"],
    ...["-C --CLEAR-SCREEN", "-d --dumb", "-e --quit-at-eof", "-E --QUIT-AT-EOF", "-F --quit-if-one-screen"],
    ...["-g --hilite-search", "-G --HILITE-SEARCH", "-i --ignore-case", "-I --IGNORE-CASE"],
    ...[
      "-J --status-column",
      "-K --quit-on-intr",
      "-L --no-lessopen",
      "-m --long-prompt",
      "-M --LONG-PROMPT",
    ],
    ...["-n --line-numbers", "-N --LINE-NUMBERS", "-q --quiet --silent", "-Q --QUIET --SILENT"],
    ...[
      "-r --raw-control-chars",
      "-R --RAW-CONTROL-CHARS",
      "-s --squeeze-blank-lines",
      "-S --chop-long-lines",
    ],
    ...["-u --underline-special", "-U --UNDERLINE-SPECIAL", "-w --hilite-unread", "-W --HILITE-UNREAD"],
    ...["-X --no-init", "-~ --tilde", "--no-keypad", "--follow-name", "--use-color", "--incsearch"],
    ...["--no-histdups", "--file-size", "-V --version", "--help"],
  ]
    .map((n) => flag(n))
    .concat(
      ["-b --buffers", "-h --max-back-scroll", "-j --jump-target", "-x --tabs", "-y --max-forw-scroll"]
        .concat(["-# --shift", "--line-num-width", "--status-col-width", "--wheel-lines"])
        .map((n) => opt(n, "number")),
      [WINDOW],
    ),
  // `-NUM` is `-zNUM` (more's form).
  numeric: WINDOW,
  // Options only before the first file (a later `-o` is a file name); `--` ends them.
  permute: false,
  abbreviate: false,
  operands: ["read"],
  effect: "read",
  finish,
};
