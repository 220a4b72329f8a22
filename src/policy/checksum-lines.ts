// The file names a checksum list gives `sha256sum -c` (md5sum, sha1sum, sha224sum, sha384sum, sha512sum, b2sum,
// cksum; GNU coreutils 9.1, digest.c), each of which the check opens and hashes. A line is `HASH  NAME` (text),
// `HASH *NAME` (binary), the BSD-reversed `HASH NAME`, or the tagged `ALGO (NAME) = HASH` (`--tag`, BSD's md5);
// a leading backslash marks NAME escaped (`\\`, `\n`, `\r`), leading blanks are skipped, a `#` line is a
// comment, an empty line is skipped and one trailing CR is dropped. The real parser picks one reading per line
// (and the BSD-reversed one only when the list's first line is such), so every reading is returned here: a
// name judged that the check never opens costs a question, a name it opens and was not judged would leak.
// Pure: the disk's look is guards/checksum-lists.ts.

/** The names every line of a list may give, or the first line whose name is not known here. */
export type ChecksumNames = { names: string[] } | { unread: string };

/** The most names judged; a longer list asks. */
export const MAX_CHECKSUM_NAMES = 1_000;

/** `ALGO (NAME) = HASH`: NAME runs to the line's last `)`, as coreutils searches backwards for it. */
const TAGGED = /^[A-Za-z0-9-]+ ?\((.*)\)[ \t]*=[ \t]*[A-Za-z0-9+/]*=*$/s;
/** A word and one blank, then the rest: the word is the digest when `isDigest` says it may be. */
const UNTAGGED = /^(\S+)[ \t](.*)$/s;

/** Hex of whole bytes, or padded base64 as coreutils 9.2 reads it: any other word is no digest. */
function isDigest(word: string): boolean {
  if (/^[0-9a-fA-F]+$/.test(word) && word.length % 2 === 0) return true;
  return /^[A-Za-z0-9+/]+={0,2}$/.test(word) && word.length % 4 === 0;
}

/** A name as an escaped line spells it (`\\`, `\n`, `\r`), or null where coreutils refuses the line. */
export function unescapeChecksumName(name: string): string | null {
  let out = "";
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c !== "\\") {
      out += c;
      continue;
    }
    const next = name[++i];
    if (next === "\\") out += "\\";
    else if (next === "n") out += "\n";
    else if (next === "r") out += "\r";
    else return null;
  }
  return out;
}

/** Every name one line may give (none for a comment or an empty line), or null when no reading fits. */
function lineNames(raw: string): string[] | null {
  if (raw.startsWith("#")) return [];
  const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  if (line === "") return [];
  // A NUL ends the name where C's strings end it: not read here.
  if (line.includes("\0")) return null;
  let rest = line.replace(/^[ \t\v\f\r]+/, "");
  const escaped = rest.startsWith("\\");
  if (escaped) rest = rest.slice(1);
  const readings: string[] = [];
  const tagged = TAGGED.exec(rest);
  if (tagged) readings.push(tagged[1] as string);
  const untagged = UNTAGGED.exec(rest);
  if (untagged && isDigest(untagged[1] as string)) {
    const name = untagged[2] as string;
    // After the blank: the type (` ` text, `*` binary) and the name, or, BSD-reversed, the name itself.
    if (name.startsWith(" ") || name.startsWith("*")) readings.push(name.slice(1));
    readings.push(name);
  }
  if (readings.length === 0) return null;
  const names: string[] = [];
  for (const r of readings) {
    const name = escaped ? unescapeChecksumName(r) : r;
    if (name === null) return null;
    if (name !== "") names.push(name);
  }
  return names;
}

/** The names a checksum list's text gives `--check`, or the first line not read here. */
export function checksumNames(text: string): ChecksumNames {
  const names = new Set<string>();
  for (const line of text.split("\n")) {
    const got = lineNames(line);
    if (got === null) return { unread: line.slice(0, 80) };
    for (const n of got) names.add(n);
    if (names.size > MAX_CHECKSUM_NAMES) return { unread: `more than ${MAX_CHECKSUM_NAMES} names` };
  }
  return { names: [...names] };
}
