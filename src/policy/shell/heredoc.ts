// The here-documents bash and mvdan/sh end at the same line. Outside this subset they differ (red team,
// round 9): bash decodes `<<$'\x45OF'` to EOF, removes the backslash of `<<"E\\F"` and `<<"E\$F"`, and
// inside `$( )` or `<( )` ends the body at a line `EOF)`, where the parser reads on; the lines between
// then run as commands the parser took for text.

/** A character a delimiter may hold: none is special to bash or the parser, bare or in quotes. */
const CHAR = "[A-Za-z0-9_.-]";
/**
 * The delimiter as written, in pieces both unquote alike: plain characters, each bare, after a
 * backslash (`\EOF`, `\E\O\F`), or in single or double quotes (`'EOF'`, `"E"OF`, `E'O'F`). Left out:
 * `$'…'` and `$"…"` (bash decodes them, the parser does not) and a backslash inside double quotes (bash
 * removes it before `$`, `` ` ``, `"`, `\`, the parser keeps it).
 */
const WRITTEN = new RegExp(`^(?:${CHAR}|\\\\${CHAR}|'${CHAR}*'|"${CHAR}*")+$`);

/**
 * The line that ends the here-document for bash: the written word after quote removal (bash does no
 * other expansion there), or null when it is outside the subset.
 */
export function heredocDelimiter(written: string): string | null {
  if (!WRITTEN.test(written)) return null;
  const delimiter = written.replace(/[\\'"]/g, "");
  return delimiter === "" ? null : delimiter;
}

/**
 * Why bash may end this here-document somewhere else than the parser, or null. `written` is the
 * delimiter word as written, `body` the source the parser took for the body up to and including the
 * line that ended it, `dash` is `<<-` (leading tabs are stripped before the comparison).
 */
export function heredocDisagreement(written: string, body: string, dash: boolean): string | null {
  const delimiter = heredocDelimiter(written);
  if (delimiter === null)
    return "a here-document delimiter other than plain characters (letters, digits, `_`, `.`, `-`), bare, after a backslash or in quotes (bash may end it elsewhere)";
  const lines = body.split("\n").map((line) => (dash ? line.replace(/^\t+/, "") : line));
  // The parser's last line is the one it ended at: bash must end there too, and at no line before it.
  const last = lines.length - 1;
  for (const [i, text] of lines.entries()) {
    if (i === last && body !== "" && text !== delimiter)
      return `a here-document the parser ended at a line other than its delimiter ${delimiter} (bash ends it elsewhere)`;
    if (i < last && text.startsWith(delimiter))
      return `a here-document line that starts with its delimiter ${delimiter} (bash may end the body there)`;
  }
  return null;
}
