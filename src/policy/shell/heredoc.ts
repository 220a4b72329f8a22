// The here-documents bash and mvdan/sh end at the same line. Outside this subset they differ (red team,
// round 9): bash decodes `<<$'\x45OF'` to EOF, removes the backslash of `<<"E\\F"` and `<<"E\$F"`, and
// inside `$( )` or `<( )` ends the body at a line `EOF)`, where the parser reads on; the lines between
// then run as commands the parser took for text.

/** The delimiter as written: letters, digits and `_`, bare or wholly inside one kind of quotes. */
const DELIMITER = /^(['"]?)([A-Za-z0-9_]+)\1$/;

/**
 * Why bash may end this here-document somewhere else than the parser, or null. `written` is the
 * delimiter word as written, `body` the text the parser took for the body, `dash` is `<<-` (leading
 * tabs are stripped before the comparison).
 */
export function heredocDisagreement(written: string, body: string, dash: boolean): string | null {
  const delimiter = DELIMITER.exec(written)?.[2];
  if (delimiter === undefined)
    return "a here-document delimiter other than a plain word, bare or quoted (bash may end it elsewhere)";
  for (const line of body.split("\n")) {
    const text = dash ? line.replace(/^\t+/, "") : line;
    if (text.startsWith(delimiter) && text !== delimiter)
      return `a here-document line that starts with its delimiter ${delimiter} (bash may end the body there)`;
  }
  return null;
}
