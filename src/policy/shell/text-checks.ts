// Text on which mvdan/sh and bash can read different commands, found before parsing. bash
// treats a carriage return as a word character, ends a comment at a newline even after a
// backslash, joins a backslash-newline inside words, strings and here-documents, and treats no-break spaces and other Unicode blanks as parts of words; invisible
// and bidirectional-control characters make a command read differently to the person shown it.
// Any of these makes the command unparsable: it asks, and is denied without a person.

interface TextCheck {
  test: RegExp;
  why: string;
}

const CHECKS: readonly TextCheck[] = [
  { test: /\r/, why: "a carriage return (bash and the parser end lines differently there)" },
  { test: /\0/, why: "a NUL character" },
  { test: /\uFFFD/, why: "a U+FFFD replacement character (the command was not valid UTF-8)" },
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  { test: /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/, why: "a control character" },
  {
    test: /[\u00A0\u1680\u180E\u2000-\u200F\u2028-\u202F\u205F-\u206F\u3000\uFEFF]/,
    why: "an invisible, bidirectional or non-ASCII blank character (bash does not split words there)",
  },
  // bash removes a backslash-newline before it reads anything but single quotes; mvdan/sh keeps it inside
  // double quotes and here-documents, so `"$\<nl>(cmd)"`, `$\<nl>'…'` and a delimiter split over two lines
  // read differently (red team, round 8). Kept: a continuation after a blank, outside here-documents,
  // which splits no word (`git log \<nl>  --stat`).
  {
    test: /(?<![ \t])\\\n/,
    why: "a backslash-newline inside a word or a string (bash joins the lines before it reads them)",
  },
  // Only after an unquoted delimiter: a quoted one (`<<'EOF'`, `<<E"OF"`, `<<\EOF`) makes bash read the
  // body's lines as they are.
  {
    test: /<<(?!<)-?[ \t]*(?=([^\s'"\\]+))\1(?!['"\\])[\s\S]*\\\n/,
    why: "a backslash-newline after a here-document (bash joins its lines before it looks for the delimiter)",
  },
  // bash ends a comment at the newline; mvdan/sh continues it over a backslash-newline.
  {
    test: /#[^\n]*\\\n/,
    why: "a comment that ends in a backslash (bash and the parser disagree on the next line)",
  },
];

/** Why bash and the parser could read this script differently, or null. */
export function disagreement(script: string): string | null {
  for (const check of CHECKS) if (check.test.test(script)) return `the command contains ${check.why}`;
  return null;
}
