// A private key in an encoding the PEM header test cannot read (red team, round 5): UTF-16 text (NULs
// between the characters: Windows editors, PowerShell's `>`), base64 of a PEM (a Kubernetes Secret's
// `data:`), base64 of a DER key, and a DER key file itself (PKCS#1, PKCS#8 plain or encrypted, SEC1,
// PKCS#12). Text is latin1, one character a byte, as the companion reads files. No I/O; no Buffer (the
// edge runs this too).

/** Five dashes in UTF-16, either byte order: the start of a PEM header. */
const UTF16_DASHES = /-\0-\0-\0-\0-\0|\0-\0-\0-\0-\0-/;

const BASE64_CHARS = /[A-Za-z0-9+/]/;

/**
 * "-----BEGIN" in base64 at each of the three byte alignments: only the characters that depend on these
 * bytes alone, so the text before and after cannot change them.
 */
const BASE64_BEGIN = (() => {
  const marker = "-----BEGIN";
  const forms: string[] = [];
  for (let k = 0; k < 3; k++) {
    const encoded = btoa("\0".repeat(k) + marker);
    let form = "";
    for (let j = 0; j < encoded.length; j++) {
      const first = Math.floor((6 * j) / 8);
      const last = Math.floor((6 * j + 5) / 8);
      if (first >= k && last <= k + marker.length - 1) form += encoded[j];
    }
    forms.push(form.replace(/[+/]/g, (c) => `\\${c}`));
  }
  return new RegExp(forms.join("|"), "g");
})();

/** A base64 DER structure: a SEQUENCE (0x30, `M`) with a short or long length (`MA`–`MI`). */
const BASE64_DER = /M[A-I][A-Za-z0-9+/]{30}/g;

/** At most this many windows per text are decoded (a text of base64 markers cannot make a scan slow). */
const MAX_CANDIDATES = 64;
/** A window of base64 decoded after a "-----BEGIN" marker. */
const WINDOW = 8192;
/** Base64 characters a PEM header needs past its marker ("-----BEGIN ENCRYPTED PRIVATE KEY-----"). */
const HEADER_MAX = 128;

/** base64 characters only, cut to whole groups, decoded (latin1); "" when nothing is left. */
function decode(chars: string): string {
  const clean = chars.replace(/[^A-Za-z0-9+/]/g, "");
  const whole = clean.slice(0, clean.length - (clean.length % 4));
  try {
    return whole === "" ? "" : atob(whole);
  } catch {
    return "";
  }
}

/**
 * Whether a DER structure at the start of `s` is a private key: a SEQUENCE whose first member is the
 * version of a private key (PKCS#1 RSA/DSA: 0 then a big INTEGER; PKCS#8: 0 or 1 then an algorithm;
 * SEC1: 1 then the key's OCTET STRING; PKCS#12: 3), or an encrypted PKCS#8 (PBES2, PKCS#12 PBE).
 */
export function derPrivateKey(s: string): boolean {
  if (s.charCodeAt(0) !== 0x30) return false;
  const len = s.charCodeAt(1);
  const at = len < 0x80 ? 2 : len === 0x81 ? 3 : len === 0x82 ? 4 : 0;
  if (at === 0) return false;
  const b = (i: number) => s.charCodeAt(at + i);
  if (b(0) === 0x02 && b(1) === 0x01) {
    const version = b(2);
    const next = b(3);
    if (version === 0 && next === 0x02 && (b(4) === 0x81 || b(4) === 0x82)) return true;
    if ((version === 0 || version === 1) && next === 0x30 && b(5) === 0x06) return true;
    if (version === 1 && next === 0x04) return true;
    if (version === 3 && next === 0x30) return true;
    return false;
  }
  // EncryptedPrivateKeyInfo: SEQUENCE { SEQUENCE { OID 1.2.840.113549.1.5.13 or 1.2.840.113549.1.12.1.x
  if (b(0) !== 0x30) return false;
  const inner = b(1) < 0x80 ? 2 : b(1) === 0x81 ? 3 : b(1) === 0x82 ? 4 : 0;
  if (inner === 0) return false;
  const oid = s.slice(at + inner, at + inner + 10);
  return (
    oid === "\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x05" || oid === "\x06\x0a\x2a\x86\x48\x86\xf7\x0d\x01\x0c"
  );
}

/**
 * Whether `text` holds a private key in one of these encodings; `atStart` when the text begins the file
 * (a raw DER key is a whole file). `header` is the PEM header test of plain text.
 */
export function encodedPrivateKey(text: string, atStart: boolean, header: (t: string) => boolean): boolean {
  if (atStart && derPrivateKey(text)) return true;
  if (UTF16_DASHES.test(text) && header(text.replace(/\0/g, ""))) return true;
  let tried = 0;
  // A marker inside a window already decoded (its header wholly inside) was seen there: skipping it keeps
  // the work linear, so no count of earlier markers (a bundle of base64 certificates) ends the look. Red
  // team round 12: the look used to stop after 64 markers and answer "no key" for the key after them.
  let covered = -1;
  for (const m of text.matchAll(BASE64_BEGIN)) {
    if (m.index < covered) continue;
    // Windows cover 8 KiB each, so a 256 KiB chunk has ~32; more (a huge text of markers) asks.
    if (tried++ >= MAX_CANDIDATES) return true;
    // From a little before the marker (its group may start up to three characters earlier): each of the
    // four shifts is one alignment, and one of them is the base64 text's own.
    let from = m.index;
    while (from > 0 && m.index - from < 8 && BASE64_CHARS.test(text[from - 1] as string)) from--;
    covered = m.index + WINDOW - HEADER_MAX;
    const run = text.slice(from, m.index + WINDOW).replace(/[^A-Za-z0-9+/]/g, "");
    for (let shift = 0; shift < 4; shift++) if (header(decode(run.slice(shift)))) return true;
  }
  for (const m of text.matchAll(BASE64_DER)) {
    // Only where a base64 run starts (the character before is none of its alphabet); each look decodes
    // 32 characters, so every run start is looked at (no cap: a key after many certificates is found).
    if (m.index > 0 && BASE64_CHARS.test(text[m.index - 1] as string)) continue;
    if (derPrivateKey(decode(text.slice(m.index, m.index + 32)))) return true;
  }
  return false;
}
