// Response files: some programs (binutils, tsc, argparse with `fromfile_prefix_chars`, pytest) read a
// word `@FILE` as more arguments taken from FILE, and report each word that is no valid argument in an
// error — FILE's contents printed, with no operand naming the read. Not understood wherever it appears.
import type { NotUnderstood, Parsed } from "./spec.ts";

export function responseFileWord(p: Parsed): NotUnderstood | null {
  const at = p.argv.slice(1).find((a) => a.value?.startsWith("@") && a.value.length > 1);
  return at === undefined
    ? null
    : {
        word: at.raw,
        reason: `${p.program} reads a word starting with \`@\` as a response file and prints its words`,
      };
}
