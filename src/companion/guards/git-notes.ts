// Git notes: text attached to commits under refs/notes/, which `git log` and `git show` print beside each
// commit by default (refs/notes/commits, and whatever notes.displayRef or core.notesRef name). A note is
// a blob no file path names, so neither the history check by path nor a file's key scan sees it: a
// repository that has notes makes a call printing them ask (red team, round 7).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const MAX_PACKED_REFS = 8 * 1024 * 1024;

function hasLooseRef(dir: string): boolean {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return false;
  }
  return names.length > 0;
}

/** Why the repository's commits may carry notes `git log` prints; null when it has none. */
export function notesReason(commonDir: string): string | null {
  if (hasLooseRef(join(commonDir, "refs", "notes")))
    return "the repository has git notes (refs/notes/), which git prints beside commits unchecked";
  for (const [file, pattern, why] of [
    [
      "packed-refs",
      / refs\/notes\//,
      "the repository has git notes (packed refs/notes/), which git prints beside commits unchecked",
    ],
    [
      "config",
      /^\s*(displayref|notesref)\s*=/im,
      "the repository's configuration names notes refs git prints beside commits",
    ],
  ] as const) {
    let text: string;
    try {
      text = readFileSync(join(commonDir, file), "utf8").slice(0, MAX_PACKED_REFS);
    } catch {
      continue;
    }
    if (pattern.test(text)) return why;
  }
  return null;
}
