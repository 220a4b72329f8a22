// gzip, gunzip and zcat (gzip 1.12; gunzip and zcat are shell scripts that `exec gzip -d "$@"` and
// `exec gzip -cd "$@"`, so gzip is a unit of its own, found on PATH like tar -z's). To standard output
// (-c, zcat, or no file: a filter), listing (-l) or testing (-t), gzip reads its operands (standard input when none): the
// decompressed text of a file is judged as a read of that file, as tar's members are. Any other form
// replaces each file by its (de)compressed copy, and -r walks directories: not understood.
import type { Arg } from "../../wrappers.ts";
import { flag, type OptionSpec, opt, type ProgramGrammar } from "../spec.ts";

const GZIP_OPTIONS: readonly OptionSpec[] = [
  ...["-h --help", "-V --version", "-L --license"].map((n) => flag(n)),
  flag("-c --stdout --to-stdout", "stdout"),
  flag("-l --list", "stdout"),
  flag("-t --test", "stdout"),
  ...["-d --decompress --uncompress", "-k --keep", "-f --force", "-n --no-name", "-N --name"].map((n) =>
    flag(n),
  ),
  ...["-q --quiet --silent", "-v --verbose", "--fast --best --rsyncable --synchronous"].map((n) => flag(n)),
  ...[..."123456789"].map((d) => flag(`-${d}`)),
  opt("-S --suffix"),
];

const ONLY_PRINTS = new Set(["-h", "--help", "-V", "--version", "-L", "--license"]);

const word = (value: string): Arg => ({ value, raw: value, glob: false, tilde: false });

function gzipFamily(names: readonly string[], toStdout: boolean): ProgramGrammar {
  return {
    names,
    options: GZIP_OPTIONS,
    permute: true,
    abbreviate: true,
    operands: ["read"],
    effect: "read",
    finish(p, out) {
      if (names[0] !== "gzip") out.inner.push([word("gzip")]);
      const prints = p.options.length > 0 && p.options.every((o) => ONLY_PRINTS.has(o.name));
      // With no file (or only `-`) it filters standard input to standard output, as tar -z runs it.
      const filters = p.operands.every((o) => o.value === "-");
      if (toStdout || p.has("stdout") || prints || filters) return null;
      return {
        word: p.program,
        reason: `${p.program} without -c, -l or -t replaces each file by its compressed or decompressed copy`,
      };
    },
  };
}

export const gzip = gzipFamily(["gzip"], false);
export const gunzip = gzipFamily(["gunzip"], false);
export const zcat = gzipFamily(["zcat"], true);
